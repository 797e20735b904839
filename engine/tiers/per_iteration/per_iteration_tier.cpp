#include "engine/tiers/per_iteration/per_iteration_tier.hpp"

#include <algorithm>
#include <cstdio>
#include <tuple>
#include <utility>

#include <fmt/format.h>

#include "catalog/glob.hpp"
#include "engine/hot/histogram_json.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/timing/windows.hpp"

namespace glint::engine {
namespace {

constexpr const char* kPerIterationSource = "per-iteration";

struct Column {
    const char* name;
    const char* header;
};
constexpr Column kColumns[] = {{"cycles-p50", "cycles p50"},
                               {"cycles-p99", "cycles p99"},
                               {"instr-p50", "instr p50"},
                               {"instr-p99", "instr p99"}};

// An empty per-call body, called through the same virtual call as a case's timed().
struct EmptyCall final : glint::detail::PerCall {
    void timed() override {}
    Outcome after() override { return {}; }
};

std::unique_ptr<PerIterationGroup> open_by_name() {
    const char* const names[] = {"cycles", "instructions"};
    return std::make_unique<PerIterationGroup>(names);
}

// Brackets kEmptyCalls + calls calls of one loop body. The empty calls and the real ones run
// the same instructions around the call (only the call's argument differs: the batch size, or
// which PerCall object, fixed in a register before the opening read), so the empties' median is
// the apparatus of the real calls to the instruction. Call(real) makes a call; After() runs
// outside the bracket.
template <class Call, class After>
void bracket_calls(const PerIterationGroup& g, std::uint64_t calls, Call&& call, After&& after,
                   CallCosts& out) {
    std::int64_t empties[kEmptyCalls][2];  // cycles, instructions of each empty call
    const std::uint64_t total = kEmptyCalls + calls;
    for (std::uint64_t k = 0; k < total; ++k) {
        const std::uint64_t real = glint::black_box<std::uint64_t>(k < kEmptyCalls ? 0 : 1);
        const hot::Snapshot<2> a = g.read();
        call(real);
        const hot::Snapshot<2> b = g.read();
        const hot::Delta<2> d = b - a;
        if (k < kEmptyCalls) {
            empties[k][0] = d.counts[0];
            empties[k][1] = d.counts[1];
            if (k + 1 == kEmptyCalls) {
                std::int64_t medians[2];
                hot::detail::column_medians(&empties[0][0], kEmptyCalls, 2, medians);
                out.empty_cycles = medians[0];
                out.empty_instructions = medians[1];
            }
            continue;
        }
        if (d.partial()) {  // off the PMU for part of the call: its counts are short
            ++out.descheduled;
            after();
            continue;
        }
        const std::int64_t cycles = d.counts[0] - out.empty_cycles;
        const std::int64_t instr = d.counts[1] - out.empty_instructions;
        if (cycles < 0 || instr < 0) ++out.clamped;
        out.cycles.record(static_cast<std::uint64_t>(std::max<std::int64_t>(0, cycles)));
        out.instructions.record(static_cast<std::uint64_t>(std::max<std::int64_t>(0, instr)));
        after();
    }
}

}  // namespace

void measure_calls(const PerIterationGroup& group, const Workload& work, std::uint64_t calls,
                   CallCosts& out) {
    const std::uint64_t syscall_reads_before = group.syscall_reads();
    const std::uint64_t torn_before = group.torn_fallbacks();
    if (work.batched()) {
        const glint::detail::Batch batch = work.batch;
        // A batch of `real` iterations: 0 for an empty call, 1 for a real one. iter_batched:
        // the next real call's input is built before the first call and after each real one,
        // outside the brackets.
        prepare_window(batch, 1);
        bracket_calls(
            group, calls, [&](std::uint64_t real) { batch.run(batch.ctx, real); },
            [&] { prepare_window(batch, 1); }, out);
    } else {
        EmptyCall empty;
        glint::detail::PerCall* const bodies[2] = {&empty, work.per_call};
        bracket_calls(
            group, calls, [&](std::uint64_t real) { bodies[real]->timed(); },
            [&] { work.after_one(); }, out);
    }
    out.syscall_reads = group.syscall_reads() - syscall_reads_before;
    out.torn_fallbacks = group.torn_fallbacks() - torn_before;
}

std::string refusal_reason(const hot::Status& status) {
    if (!status.ok)
        return fmt::format("per-call distributions need cycles and instructions: {}",
                           status.reason);
    if (!hot::zero_syscall(status.path))
        return fmt::format(
            "per-call distributions need counter reads without system calls, and this group "
            "reads with read(2) ({}); a system call per call would measure the apparatus, not "
            "the body",
            status.reason);
    return {};
}

class PerIterationTier final : public CountingTier, public RunExtension {
  public:
    RunExtension* extension() override { return this; }

    explicit PerIterationTier(GroupSource source)
        : source_(source ? std::move(source) : GroupSource(&open_by_name)) {}

    std::string_view source() const override { return kPerIterationSource; }

    bool wanted(const TierRequest& request) const override { return request.per_iteration.asked; }

    std::vector<Status> open(const TierRequest& request) override {
        histogram_glob_ = request.per_iteration.histogram_glob;
        const std::unique_ptr<PerIterationGroup> probe = source_();
        status_ = probe->status();
        const std::string refusal = refusal_reason(status_);
        Status s{kPerIterationSource, Status::State::available, {}, {}};
        if (refusal.empty()) {
            s.reason = fmt::format(
                "cycles and instructions read around every call ({}), the median of {} empty "
                "calls subtracted per case (a negative residue counts as 0)",
                status_.reason, kEmptyCalls);
        } else {
            s.state = Status::State::unavailable;
            s.reason = refusal;
            s.remedy = status_.remedy;
        }
        statuses_ = {s};
        return statuses_;
    }

    std::vector<catalog::MetricDescriptor> family() const override {
        std::vector<catalog::MetricDescriptor> out;
        for (const Column& c : kColumns) {
            catalog::MetricDescriptor d;
            d.name = c.name;
            d.header = c.header;
            d.format = catalog::Format::count;
            d.cls = catalog::MetricClass::diagnostic;
            d.source = kPerIterationSource;
            d.available = usable();
            d.is_default = usable();  // shown when --per-iteration opened; omitted when refused
            if (statuses_.empty())
                d.reason = "per-call distributions are measured under --per-iteration";
            else if (!usable()) d.reason = statuses_.front().reason;
            out.push_back(d);
        }
        return out;
    }

    std::vector<std::string> header_notes() const override {
        if (statuses_.empty()) return {};
        const Status& s = statuses_.front();
        if (!s.usable()) return {"per-iteration: unavailable, columns omitted: " + with_remedy(s)};
        return {"per-iteration: " + s.reason};
    }

    Json meta() const override {
        Json m = status_meta(statuses_);
        m["events"] = Json::Array{Json("cycles"), Json("instructions")};
        m["readPath"] = hot::to_string(status_.path);
        m["emptyCalls"] = static_cast<unsigned long>(kEmptyCalls);
        Json cases = Json::object();
        for (const auto& [name, summary] : cases_) cases[name] = summary;
        m["cases"] = std::move(cases);
        Json histograms = Json::object();
        for (const auto& h : histograms_) histograms[h.shown] = h.json;
        m["histograms"] = std::move(histograms);
        return m;
    }

    PassResult count(const Workload& work, const PassPlan& plan) override {
        auto costs = std::make_unique<CallCosts>();
        bool measured = false;
        std::string trouble;
        if (usable()) {
            const std::unique_ptr<PerIterationGroup> group = source_();
            trouble = refusal_reason(group->status());
            if (trouble.empty()) {
                measure_calls(*group, work, plan.iterations, *costs);
                measured = costs->syscall_reads == 0 && costs->cycles.count() > 0;
                if (costs->syscall_reads != 0)
                    trouble = fmt::format("{} reads fell back to read(2) during the pass",
                                          costs->syscall_reads);
                else if (!measured) trouble = "the group was off the PMU during every call";
            }
        }
        if (!trouble.empty())
            std::fprintf(stderr, "glint: note: per-iteration: %s: %s; its cells render —\n",
                         sanitize::terminal(shown_).c_str(), trouble.c_str());
        Json summary = Json::object();
        summary["calls"] = measured ? Json(costs->cycles.count()) : Json();
        summary["emptyCallCycles"] = measured ? Json(costs->empty_cycles) : Json();
        summary["emptyCallInstructions"] = measured ? Json(costs->empty_instructions) : Json();
        summary["clampedCalls"] = measured ? Json(costs->clamped) : Json();
        summary["syscallReads"] = costs->syscall_reads;
        summary["tornFallbacks"] = costs->torn_fallbacks;
        summary["descheduledCalls"] = costs->descheduled;
        if (!trouble.empty()) summary["note"] = trouble;
        cases_.emplace_back(shown_, std::move(summary));
        PassResult result;
        double values[] = {catalog::kNotMeasured, catalog::kNotMeasured, catalog::kNotMeasured,
                           catalog::kNotMeasured};  // the order of kColumns
        if (measured) {
            values[0] = static_cast<double>(costs->cycles.percentile(50));
            values[1] = static_cast<double>(costs->cycles.percentile(99));
            values[2] = static_cast<double>(costs->instructions.percentile(50));
            values[3] = static_cast<double>(costs->instructions.percentile(99));
        }
        const auto descriptors = family();
        for (std::size_t i = 0; i < descriptors.size(); ++i)
            result.cells.push_back(catalog::make_cell(descriptors[i], values[i]));
        if (measured && !histogram_glob_.empty() && catalog::glob_match(histogram_glob_, case_))
            histograms_.push_back(histogram_record(shown_, *costs));
        return result;
    }

    void begin_case(std::string_view name, std::string_view shown) override {
        case_ = name;
        shown_ = shown;
    }

    // --histogram=GLOB: the distributions of the matching cases.
    std::vector<std::string> trailer() const override {
        std::vector<std::string> lines;
        for (const auto& h : histograms_) lines.insert(lines.end(), h.lines.begin(), h.lines.end());
        if (!histogram_glob_.empty() && histograms_.empty() && usable())
            lines.push_back(fmt::format("per-iteration: --histogram={} matched no measured case",
                                        histogram_glob_));
        return lines;
    }

    // Under --isolate: a child hands back its cases' records; the parent's meta and trailer
    // then hold them as if it had counted them.
    Json hand_back() override {
        if (cases_.empty() && histograms_.empty()) return Json();
        Json handed = Json::object();
        Json cases = Json::array();
        for (auto& [name, summary] : std::exchange(cases_, {}))
            cases.push_back(Json::Array{Json(name), std::move(summary)});
        handed["cases"] = std::move(cases);
        Json histograms = Json::array();
        for (auto& h : std::exchange(histograms_, {})) {
            Json j = Json::object();
            j["shown"] = h.shown;
            j["json"] = std::move(h.json);
            Json lines = Json::array();
            for (auto& l : h.lines) lines.push_back(std::move(l));
            j["lines"] = std::move(lines);
            histograms.push_back(std::move(j));
        }
        handed["histograms"] = std::move(histograms);
        return handed;
    }

    void take_from_child(const Json& handed) override {
        if (const Json* cases = handed.find("cases"); cases && cases->is_array())
            for (const Json& c : cases->as_array())
                if (c.is_array() && c.size() == 2 && c.as_array()[0].is_string())
                    cases_.emplace_back(c.as_array()[0].as_string(), c.as_array()[1]);
        if (const Json* histograms = handed.find("histograms");
            histograms && histograms->is_array())
            for (const Json& h : histograms->as_array()) {
                const Json* shown = h.find("shown");
                const Json* json = h.find("json");
                const Json* lines = h.find("lines");
                if (!shown || !shown->is_string() || !json || !lines || !lines->is_array())
                    continue;
                HistogramRecord record{shown->as_string(), *json, {}};
                for (const Json& l : lines->as_array())
                    if (l.is_string()) record.lines.push_back(l.as_string());
                histograms_.push_back(std::move(record));
            }
    }

  private:
    // A --histogram case: its distributions as JSON meta has them and as the trailer prints them.
    struct HistogramRecord {
        std::string shown;
        Json json;                       // {"cycles": ..., "instructions": ...}
        std::vector<std::string> lines;  // the trailer's text
    };

    static HistogramRecord histogram_record(const std::string& shown, const CallCosts& costs) {
        HistogramRecord h{shown, Json::object(), {}};
        h.json["cycles"] = hot::histogram_json(costs.cycles);
        h.json["instructions"] = hot::histogram_json(costs.instructions);
        const std::tuple<const hot::Histogram*, const char*, std::int64_t> kinds[] = {
            {&costs.cycles, "cycles", costs.empty_cycles},
            {&costs.instructions, "instructions", costs.empty_instructions}};
        for (const auto& [histogram, unit, empty] : kinds) {
            const std::string title =
                fmt::format("{}: {} per call (empty call's {} subtracted)", shown, unit, empty);
            const std::string text = hot::to_text(*histogram, {.title = title, .unit = unit});
            std::size_t start = 0;
            while (start < text.size()) {
                const std::size_t end = text.find('\n', start);
                h.lines.push_back(text.substr(start, end - start));
                if (end == std::string::npos) break;
                start = end + 1;
            }
        }
        return h;
    }

    GroupSource source_;
    // Opened (statuses_ set by open()) and able to read every call without a system call.
    bool usable() const { return !statuses_.empty() && statuses_.front().usable(); }
    hot::Status status_;
    std::vector<Status> statuses_;
    std::string histogram_glob_;
    std::string case_;   // the row name: --histogram globs over it
    std::string shown_;  // with its labels: notes, histogram titles, JSON meta keys
    std::vector<std::pair<std::string, Json>> cases_;
    std::vector<HistogramRecord> histograms_;
};

std::unique_ptr<CountingTier> make_per_iteration_tier(GroupSource source) {
    return std::make_unique<PerIterationTier>(std::move(source));
}

}  // namespace glint::engine
