#include "engine/tiers/simulated/simulated_tier.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "engine/tiers/simulated/callgrind_dump.hpp"
#include "engine/tiers/simulated/simulated_status.hpp"
#include "engine/timing/windows.hpp"
#include "os/callgrind.hpp"
#include "os/files.hpp"
#include "os/process.hpp"

namespace glint::engine::simulated {
namespace {

using State = Status::State;
using Totals = std::array<double, kColumns.size()>;

constexpr std::uint64_t kDefaultIterations = 1000;  // see docs/simulated.md, "Cost"
constexpr std::size_t kMaxDumpBytes = std::size_t{64} << 20;
constexpr const char* kForkedCaches =
    "cache columns —: measured in a child process (--isolate), where Callgrind simulates the "
    "host's caches instead of the fixed geometry";

// `windows` windows of `size` iterations each.
struct Shape {
    std::uint64_t windows = 1;
    std::uint64_t size = 1;
    std::uint64_t iterations() const { return windows * size; }
};

// Collection on for one window; off again on the way out, an exception included.
class Collecting {
  public:
    Collecting() { os::callgrind_toggle_collect(); }
    ~Collecting() { os::callgrind_toggle_collect(); }
    Collecting(const Collecting&) = delete;
    Collecting& operator=(const Collecting&) = delete;
};

// The two shapes of a pass over about `n` iterations, whose difference is what is counted.
std::pair<Shape, Shape> shapes_for(const Workload& work, std::uint64_t n, std::uint64_t batch) {
    if (!work.batched()) return {{n, 1}, {2 * n, 1}};
    const std::uint64_t most = work.batch.max_window;
    std::uint64_t w = has_inputs(work.batch) ? std::clamp<std::uint64_t>(batch, 1, n) : n;
    if (most >= 2) w = std::min(w, most / 2);
    if (most == 1) w = 1;
    const std::uint64_t windows = std::max<std::uint64_t>(1, n / w);
    if (most == 1) return {{windows, 1}, {2 * windows, 1}};
    return {{windows, w}, {windows, 2 * w}};
}

class SimulatedTier final : public CountingTier, public RunExtension {
  public:
    RunExtension* extension() override { return this; }
    ~SimulatedTier() override { close(); }

    std::string_view source() const override { return "simulated"; }
    bool wanted(const TierRequest& request) const override { return request.simulate.asked; }

    std::vector<Status> open(const TierRequest& request) override {
        opened_ = true;
        opened_in_ = os::process_id();
        iterations_ = request.sizing.iterations.value_or(kDefaultIterations);
        folder_ = dump_folder();
        Status s = simulated_status();
        if (s.usable() && !os::running_on_valgrind()) {
            s.state = State::unavailable;
            s.reason =
                "not under Callgrind: --simulate re-executes a --bench run under valgrind (" +
                s.reason + ")";
        }
        s.capability = "simulated";
        statuses_ = {s};
        if (!s.usable()) return statuses_;
        std::string why;
        const auto empty = collect([] { const Collecting on; }, why);
        if (!empty) return fail(why);
        bracket_ = totals_of(*empty);
        return statuses_;
    }

    std::vector<catalog::MetricDescriptor> family() const override {
        std::vector<catalog::MetricDescriptor> out;
        for (const auto& c : kColumns)
            out.push_back({.name = c.name,
                           .header = c.header,
                           .format = catalog::Format::count,
                           .cls = catalog::MetricClass::quantitative,
                           .source = "simulated",
                           .available = usable(),
                           .is_default = usable() && c.is_default,
                           .reason = usable()  ? std::string()
                                     : opened_ ? statuses_.front().reason
                                               : std::string("not asked for: --simulate (") +
                                                     c.means + ", simulated by Callgrind)"});
        return out;
    }

    std::vector<std::string> header_notes() const override {
        std::vector<std::string> lines;
        for (const auto& s : statuses_) lines.push_back("simulated: " + with_remedy(s));
        if (!usable()) return lines;
        lines.push_back(fmt::format(
            "simulated: sim:* columns are counted on Callgrind's simulated CPU ({}), not by "
            "hardware: per iteration, the difference of {} and {} iterations, so the loop's "
            "constant and the bracket ({:g} simulated instructions, measured empty) cancel; "
            "multi-threaded rows read — (Callgrind collects per thread); wall time per case "
            "follows each table",
            kGeometry, iterations_, 2 * iterations_, bracket_[0]));
        return lines;
    }

    Json meta() const override {
        Json m = status_meta(statuses_);
        m["tool"] = "callgrind";
        m["geometry"] = kGeometry;
        m["iterations"] = Json::array();
        m["iterations"].push_back(iterations_);
        m["iterations"].push_back(2 * iterations_);
        Json bracket = Json::object();
        for (std::size_t i = 0; i < kColumns.size(); ++i)
            bracket[kColumns[i].name] = usable() ? Json(bracket_[i]) : Json();
        m["bracketCost"] = std::move(bracket);
        m["threads"] = "multi-threaded rows read — (Callgrind collects per thread)";
        return m;
    }

    void begin_case(std::string_view, std::string_view shown) override {
        cases_.push_back({std::string(shown), 0.0, 0});
        begun_ = true;
    }

    PassResult count(const Workload& work, const PassPlan& plan) override {
        PassResult result;
        Totals per;
        per.fill(catalog::kNotMeasured);
        if (usable()) {
            const auto started = std::chrono::steady_clock::now();
            // Named, not a structured binding: the lambdas below capture the longer shape.
            const auto shapes = shapes_for(work, iterations_, plan.batch);
            const Shape a = shapes.first, b = shapes.second;
            std::string why;
            // Each collection first runs the longer shape, counted and then zeroed, so both
            // start from the same warm caches and predictor whatever ran between them.
            const auto measured = [&](Shape shape) {
                return collect(
                    [&] {
                        run(work, b);
                        os::callgrind_zero_stats();
                        run(work, shape);
                    },
                    why);
            };
            const auto first = measured(a);
            const auto second = first ? measured(b) : std::nullopt;
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            // An instruction-level row's passes come without begin_case: a new workload is a new
            // row.
            const void* workload = work.batched() ? work.batch.ctx : work.per_call;
            if (!begun_ && (cases_.empty() || workload != workload_))
                cases_.push_back({"an instruction-level row", 0.0, 0});
            begun_ = false;
            workload_ = workload;
            cases_.back().seconds += seconds;
            cases_.back().iterations += a.iterations() + 3 * b.iterations();
            Json fields = Json::object();
            fields["wallSeconds"] = seconds;
            fields["iterations"] = Json::array();
            fields["iterations"].push_back(a.iterations());
            fields["iterations"].push_back(b.iterations());
            if (second) {
                const Totals x = totals_of(*first), y = totals_of(*second);
                const auto extra_windows = static_cast<double>(b.windows - a.windows);
                const auto extra = static_cast<double>(b.iterations() - a.iterations());
                for (std::size_t i = 0; i < kColumns.size(); ++i)
                    per[i] = std::max(0.0, (y[i] - x[i] - extra_windows * bracket_[i]) / extra);
                // After a fork (--isolate) Callgrind simulates the host's caches again, not ours.
                if (os::process_id() != opened_in_) {
                    for (std::size_t i = 0; i < kColumns.size(); ++i)
                        if (kColumns[i].cache) per[i] = catalog::kNotMeasured;
                    fields["problem"] = kForkedCaches;
                }
            } else {
                fields["problem"] = why;
            }
            result.row_fields["simulated"] = std::move(fields);
        }
        for (std::size_t i = 0; i < kColumns.size(); ++i)
            result.cells.push_back(catalog::make_cell(describe(i), per[i]));
        return result;
    }

    std::vector<std::string> after_table() override {
        std::vector<std::string> lines;
        for (const auto& c : cases_)
            lines.push_back(fmt::format("simulated: {}: {:.3f} s under Callgrind ({} iterations)",
                                        c.shown, c.seconds, c.iterations));
        cases_.clear();
        return lines;
    }

  private:
    struct CaseWall {
        std::string shown;
        double seconds;
        std::uint64_t iterations;
    };

    bool usable() const { return !statuses_.empty() && statuses_.front().usable(); }

    catalog::MetricDescriptor describe(std::size_t i) const { return family()[i]; }

    std::vector<Status> fail(const std::string& why) {
        statuses_ = {{"simulated", State::unavailable, "reading Callgrind's dump: " + why,
                      "run with --simulate from a shell, without valgrind around it"}};
        return statuses_;
    }

    static void run(const Workload& work, Shape shape) {
        for (std::uint64_t w = 0; w < shape.windows; ++w) {
            if (!work.batched()) {
                {
                    const Collecting on;
                    work.per_call->timed();
                }
                work.after_one();
                continue;
            }
            if (has_inputs(work.batch)) work.batch.prepare(work.batch.ctx, shape.size);
            const Collecting on;
            work.batch.run(work.batch.ctx, shape.size);
        }
    }

    Totals totals_of(const Dump& dump) const {
        Totals t;
        for (std::size_t i = 0; i < kColumns.size(); ++i) t[i] = column_total(kColumns[i], dump);
        return t;
    }

    // Zeroes the counts, runs `body` (which turns collection on where it counts), dumps, and
    // reads the dump back.
    template <class Body>
    std::optional<Dump> collect(Body&& body, std::string& why) {
        os::callgrind_zero_stats();
        body();
        const std::string name = fmt::format("glint #{}", ++dumps_);
        os::callgrind_dump(name.c_str());
        return read_dump(name, why);
    }

    std::optional<Dump> read_dump(const std::string& name, std::string& why) const {
        namespace fs = std::filesystem;
        const std::string prefix = fmt::format("cg.{}.", os::process_id());
        std::optional<fs::path> latest;
        unsigned long best = 0;
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(folder_, ec)) {
            const std::string file = entry.path().filename().string();
            if (file.rfind(prefix, 0) != 0) continue;
            const unsigned long part = std::strtoul(file.c_str() + prefix.size(), nullptr, 10);
            if (!latest || part > best) latest = entry.path(), best = part;
        }
        if (!latest) {
            why = "no dump " + prefix + "N in " + folder_;
            return std::nullopt;
        }
        std::string text;
        if (auto problem = os::read_regular_file(latest->string(), kMaxDumpBytes, text)) {
            why = problem->message;
            return std::nullopt;
        }
        fs::remove(*latest, ec);
        auto dump = parse_dump(text, why);
        if (dump && dump->trigger != name) {
            why =
                fmt::format("{} is the dump '{}', not '{}'", latest->string(), dump->trigger, name);
            return std::nullopt;
        }
        return dump;
    }

    bool opened_ = false;
    int opened_in_ = 0;  // the process that opened the tier
    std::uint64_t iterations_ = kDefaultIterations;
    std::string folder_;
    std::vector<Status> statuses_;
    Totals bracket_{};
    std::uint64_t dumps_ = 0;
    std::vector<CaseWall> cases_;
    bool begun_ = false;              // a case began and has had no pass yet
    const void* workload_ = nullptr;  // what the last pass ran
};

}  // namespace
}  // namespace glint::engine::simulated

namespace glint::engine {

std::unique_ptr<CountingTier> make_simulated_tier() {
    return std::make_unique<simulated::SimulatedTier>();
}

}  // namespace glint::engine
