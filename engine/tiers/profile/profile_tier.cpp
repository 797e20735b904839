#include "engine/tiers/profile/profile_tier.hpp"

#include <cstdio>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "engine/model/row.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/profile/case_profile.hpp"
#include "engine/profile/flame_graph.hpp"
#include "engine/profile/sampling_choice.hpp"
#include "engine/profile/stacks.hpp"
#include "os/errors.hpp"
#include "os/files.hpp"

namespace glint::engine {
namespace {

constexpr const char* kProfileSource = "profile";

std::string symbols_how(const os::Symbolizer& s) {
    return s.debug_info_available()
               ? "ELF symbol tables, inline chains and lines from DWARF through " +
                     s.debug_info_how()
               : "ELF symbol tables only (" + s.debug_info_how() + ")";
}

class ProfileTier final : public Tier, public RunExtension {
  public:
    RunExtension* extension() override { return this; }

    std::string_view source() const override { return kProfileSource; }

    bool wanted(const TierRequest& request) const override { return request.profile.asked; }

    std::vector<Status> open(const TierRequest& request) override {
        request_ = request.profile;
        limits_.samples = request_.samples;
        limits_.time_ns = request_.time_ms * 1e6;
        plan_ = profile::plan_sampling(request_.hz);
        if (!plan_.ok) {
            statuses_ = {{kProfileSource, Status::State::unavailable, plan_.reason, plan_.remedy}};
            return statuses_;
        }
        symbols_ = std::make_unique<os::Symbolizer>();
        std::string reason = fmt::format(
            "user-mode {} with frame-pointer stacks, {} samples or {:g} ms per case after its "
            "counting passes; symbols: {}",
            plan_.how, limits_.samples, request_.time_ms, symbols_how(*symbols_));
        for (const auto& n : plan_.notes) reason += "; " + n;
        statuses_ = {{kProfileSource, Status::State::available, reason, ""}};
        return statuses_;
    }

    std::vector<std::string> header_notes() const override {
        if (statuses_.empty() || !statuses_.front().usable()) return {};
        return {"profile: " + statuses_.front().reason};
    }

    Json meta() const override {
        Json m = status_meta(statuses_);
        m["event"] = std::string(os::sample_event_name(plan_.spec.event));
        m["sampling"] = plan_.how;
        m["precise"] = plan_.precise;
        m["samplesPerCase"] = limits_.samples;
        m["timeBoundMs"] = request_.time_ms;
        if (symbols_) {
            m["symbols"] = symbols_how(*symbols_);
            Json modules = Json::array();
            for (const auto& r : symbols_->modules()) {
                Json j = Json::object();
                j["path"] = r.path;
                j["symbolTable"] = r.symbol_table;
                j["debugInfo"] = r.debug_info;
                if (!r.note.empty()) j["note"] = r.note;
                modules.push_back(std::move(j));
            }
            m["modules"] = std::move(modules);
        }
        m["folded"] = request_.folded_path.empty() ? Json() : Json(request_.folded_path);
        return m;
    }

    void begin_case(std::string_view, std::string_view shown) override { case_ = shown; }

    // The sampling pass, after the case's counting passes: its row's "profile" field.
    bool has_pass() const override { return true; }

    Json pass(const Workload& work, const PassPlan& plan) override {
        Json result = Json::object();
        os::Sampler sampler;
        if (const int error = sampler.open(plan_.spec)) {
            const std::string why = fmt::format("the sampler did not open for this case: {}",
                                                os::describe_errno(error));
            std::fprintf(stderr, "glint: note: profile: %s: %s\n",
                         sanitize::terminal(case_).c_str(), why.c_str());
            Json j = Json::object();
            j["error"] = why;
            result["profile"] = std::move(j);
            return result;
        }
        profile::CaseProfile cp;
        cp.name = case_;
        cp.spec = plan_.spec;
        cp.how = plan_.how;
        cp.limits = limits_;
        std::vector<os::SampleRecord> records;
        cp.pass = profile::run_sampled(
            work, sampler, limits_, [&](const os::SampleRecord& r) { records.push_back(r); },
            plan.batch);  // iter_batched: the timing pass's windows
        cp.counts = sampler.counts();
        sampler.close();
        profile::StackBuilder stacks(*symbols_, profile::pass_code());
        for (const auto& r : records) stacks.add(r, cp.profile);
        cp.dropped_glint = stacks.dropped_glint();
        cp.dropped_after = stacks.dropped_after();
        cp.modules = modules_of(cp.profile);
        for (auto& line : profile::profile_lines(cp)) after_.push_back(std::move(line));
        notes_.add(case_, cp.notes());
        for (auto& line : profile::folded_lines(cp)) folded_ += line + "\n";
        ++folded_cases_;
        result["profile"] = profile::profile_json(cp);
        return result;
    }

    std::vector<std::string> after_table() override { return std::exchange(after_, {}); }

    // Under --isolate the parent writes --profile-folded: a child hands back its cases' stacks.
    // Under --isolate the parent also prints the run's profile notes: a child hands back its tally.
    Json hand_back() override {
        if (folded_cases_ == 0) return Json();
        Json j = Json::object();
        j["folded"] = std::exchange(folded_, {});
        j["cases"] = std::exchange(folded_cases_, 0);
        j["notes"] = std::exchange(notes_, {}).to_json();
        return j;
    }

    void take_from_child(const Json& handed) override {
        if (const Json* notes = handed.find("notes")) notes_.merge(*notes);
        const Json* folded = handed.find("folded");
        const Json* cases = handed.find("cases");
        if (!folded || !folded->is_string() || !cases || !cases->is_number()) return;
        folded_ += folded->as_string();
        folded_cases_ += static_cast<std::size_t>(cases->as_number());
    }

    // The run's footer: each profile note once (profile_notes.hpp), then where the folded
    // stacks went.
    std::vector<std::string> trailer() const override {
        std::vector<std::string> lines = notes_.lines();
        if (request_.folded_path.empty() || statuses_.empty() || !statuses_.front().usable())
            return lines;
        std::string problem;
        const auto target = os::resolve_output(request_.folded_path, problem);
        if (auto error = target ? os::write_output(*target, folded_) : std::optional{problem}) {
            std::fprintf(stderr, "glint: error: --profile-folded: %s\n", error->c_str());
            folded_failed_ = true;
            return lines;
        }
        lines.push_back(fmt::format("profile: folded stacks of {} case{} written to {}",
                                    folded_cases_, folded_cases_ == 1 ? "" : "s",
                                    request_.folded_path));
        return lines;
    }

    bool output_failed() const override { return folded_failed_; }

    // --bench-html: the case's flame graph, full width beneath its row.
    std::string row_html(const Row& row) const override {
        const Json* profile = row.extra_fields.find("profile");
        if (!profile) return {};
        return profile::flame_graph_from_profile(*profile);
    }

  private:
    // The reports of the modules the profile's frames are in.
    std::vector<os::ModuleReport> modules_of(const profile::Profile& p) const {
        std::set<std::string> used;
        for (const auto& f : p.functions()) used.insert(f.name.module);
        std::vector<os::ModuleReport> out;
        for (auto& r : symbols_->modules())
            if (used.count(r.path)) out.push_back(std::move(r));
        return out;
    }

    ProfileRequest request_;
    profile::PassLimits limits_;
    profile::SamplingPlan plan_;
    std::vector<Status> statuses_;
    std::unique_ptr<os::Symbolizer> symbols_;
    std::string case_;
    std::vector<std::string> after_;
    std::string folded_;
    std::size_t folded_cases_ = 0;
    profile::NoteTally notes_;            // every profiled case's notes, printed once by trailer()
    mutable bool folded_failed_ = false;  // set by trailer() (const: it only prints otherwise)
};

}  // namespace

std::unique_ptr<Tier> make_profile_tier() { return std::make_unique<ProfileTier>(); }

}  // namespace glint::engine
