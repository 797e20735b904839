#include "engine/tiers/tier0/tier0_tier.hpp"

#include <array>
#include <optional>

#include <fmt/format.h>

#include "catalog/selection.hpp"
#include "engine/counting/messages.hpp"
#include "engine/tiers/tier0/tier0_math.hpp"
#include "engine/timing/windows.hpp"

namespace glint::engine::tier0 {
namespace {

using catalog::Format;
using State = Status::State;

struct Tier0Metric {
    const char* name;
    const char* header;
    Format format;
    std::optional<ProcessCounter> counter;  // nullopt: cache-hit (derived)
};

constexpr std::array<Tier0Metric, 11> kMetrics{{
    {"syscr", "syscr", Format::count, ProcessCounter::syscr},
    {"syscw", "syscw", Format::count, ProcessCounter::syscw},
    {"minflt", "minflt", Format::count, ProcessCounter::minflt},
    {"majflt", "majflt", Format::count, ProcessCounter::majflt},
    {"vol-cs", "vol-cs", Format::count, ProcessCounter::nvcsw},
    {"invol-cs", "invol-cs", Format::count, ProcessCounter::nivcsw},
    {"rchar", "rchar", Format::count, ProcessCounter::rchar},
    {"wchar", "wchar", Format::count, ProcessCounter::wchar},
    {"rd-bytes", "rd-bytes", Format::count, ProcessCounter::read_bytes},
    {"wr-bytes", "wr-bytes", Format::count, ProcessCounter::write_bytes},
    {"cache-hit", "cache-hit", Format::percent, std::nullopt},
}};

bool from_rusage(ProcessCounter c) {
    return c == ProcessCounter::minflt || c == ProcessCounter::majflt ||
           c == ProcessCounter::nvcsw || c == ProcessCounter::nivcsw;
}

class Tier0 final : public CountingTier {
  public:
    explicit Tier0(SnapshotSource source) : source_(std::move(source)) {}

    std::string_view source() const override { return "tier0"; }

    // Opt-in: opened only when --metrics names one of its columns (TierSet checks that).
    bool wanted(const TierRequest&) const override { return false; }

    bool counts_process() const override { return true; }  // RUSAGE_SELF, /proc/self/io

    std::vector<Status> open(const TierRequest&) override {
        opened_ = true;
        std::vector<Tier0Delta> empties;
        for (std::size_t i = 0; i < kCalibrationBrackets; ++i) {
            const os::ProcessSnapshot before = source_();
            const os::ProcessSnapshot after = source_();
            empties.push_back(snapshot_delta(before, after));
            if (i == 0) probe_ = after;
        }
        cost_ = median_cost(empties);
        statuses_.clear();
        std::size_t present = 0;
        for (std::size_t i = 0; i < os::kProcessCounters; ++i) present += cost_.present[i];
        if (present == 0) {
            statuses_.push_back({"tier0", State::unavailable,
                                 missing_reason(ProcessCounter::syscr) + "; " +
                                     missing_reason(ProcessCounter::minflt),
                                 ""});
            return statuses_;
        }
        std::string reason =
            "getrusage(RUSAGE_SELF) + /proc/self/io, process-wide (other threads' activity during "
            "a pass is counted)";
        statuses_.push_back({"tier0",
                             present == os::kProcessCounters ? State::available : State::degraded,
                             std::move(reason), ""});
        for (std::size_t i = 0; i < os::kProcessCounters; ++i) {
            if (cost_.present[i]) continue;
            const auto c = static_cast<ProcessCounter>(i);
            statuses_.push_back({"tier0.field", State::unavailable, missing_reason(c), ""});
        }
        return statuses_;
    }

    std::vector<catalog::MetricDescriptor> family() const override {
        std::vector<catalog::MetricDescriptor> out;
        for (const auto& m : kMetrics) out.push_back(describe(m));
        return out;
    }

    std::vector<std::string> header_notes() const override {
        std::vector<std::string> lines;
        for (const auto& s : statuses_) lines.push_back("tier0: " + s.reason);
        std::string parts;
        for (const auto& m : kMetrics) {
            if (!m.counter || !cost_.present[static_cast<std::size_t>(*m.counter)]) continue;
            parts += fmt::format("{}{} {:g}", parts.empty() ? "" : ", ", m.name,
                                 cost_.values[static_cast<std::size_t>(*m.counter)]);
        }
        if (!parts.empty())
            lines.push_back(fmt::format(
                "tier0: each snapshot's own /proc/self/io reads removed exactly; bracket "
                "self-cost at open (median of {} empty brackets): {}; subtracted, clamped at 0",
                kCalibrationBrackets, parts));
        return lines;
    }

    Json meta() const override {
        Json m = status_meta(statuses_);
        m["scope"] = "process";
        Json cost = Json::object();
        cost["method"] =
            "median of 9 empty brackets at open; each snapshot's own /proc/self/io "
            "reads removed exactly";
        Json per = Json::object();
        for (const auto& metric : kMetrics) {
            if (!metric.counter) continue;
            const auto i = static_cast<std::size_t>(*metric.counter);
            per[metric.name] = cost_.present[i] ? Json(cost_.values[i]) : Json();
        }
        cost["perBracket"] = std::move(per);
        m["bracketCost"] = std::move(cost);
        return m;
    }

    PassResult count(const Workload& work, const PassPlan& plan) override {
        Tier0Totals totals;
        if (work.batched() && !has_inputs(work.batch)) {
            const os::ProcessSnapshot before = source_();
            work.batch.run(work.batch.ctx, plan.iterations);
            totals.add(snapshot_delta(before, source_()));
        } else if (work.batched()) {  // iter_batched: one bracket per window, setup outside
            for_each_window(work.batch, plan.iterations, plan.batch, [&](std::uint64_t k) {
                const os::ProcessSnapshot before = source_();
                work.batch.run(work.batch.ctx, k);
                totals.add(snapshot_delta(before, source_()));
            });
        } else {
            for (std::uint64_t i = 0; i < plan.iterations; ++i) {
                const os::ProcessSnapshot before = source_();
                work.per_call->timed();
                totals.add(snapshot_delta(before, source_()));
                work.after_one();
            }
        }
        const auto values = per_iteration(totals, plan.iterations, cost_);
        auto value_of = [&](ProcessCounter c) { return values[static_cast<std::size_t>(c)]; };
        PassResult result;
        for (const auto& m : kMetrics) {
            const double v = m.counter ? value_of(*m.counter)
                                       : cache_hit_percent(value_of(ProcessCounter::rchar),
                                                           value_of(ProcessCounter::read_bytes));
            result.cells.push_back(catalog::make_cell(describe(m), v));
        }
        return result;
    }

  private:
    std::string missing_reason(ProcessCounter c) const {
        if (from_rusage(c)) {
            if (!probe_.rusage_ok) return "getrusage(RUSAGE_SELF) failed";
            return fmt::format("getrusage reports no {}", os::process_counter_name(c));
        }
        if (!probe_.io_ok)
            return "/proc/self/io is unreadable: " + counting::describe_errno(probe_.io_error);
        return fmt::format(
            "this kernel's /proc/self/io has no {} field (it needs "
            "CONFIG_TASK_IO_ACCOUNTING and CONFIG_TASK_XACCT)",
            os::process_counter_name(c));
    }

    catalog::MetricDescriptor describe(const Tier0Metric& m) const {
        catalog::MetricDescriptor d;
        d.name = m.name;
        d.header = m.header;
        d.format = m.format;
        d.cls = catalog::MetricClass::quantitative;
        d.source = "tier0";
        d.is_default = false;
        if (!opened_) {
            d.reason =
                "opt-in: select a tier-0 column (e.g. --metrics=syscr,rchar) to run its pass";
            return d;
        }
        if (m.counter) {
            d.available = cost_.present[static_cast<std::size_t>(*m.counter)];
            if (!d.available) d.reason = missing_reason(*m.counter);
        } else {
            const bool r = cost_.present[static_cast<std::size_t>(ProcessCounter::rchar)];
            const bool b = cost_.present[static_cast<std::size_t>(ProcessCounter::read_bytes)];
            d.available = r && b;
            if (!d.available)
                d.reason = "derived from rchar and rd-bytes: " +
                           missing_reason(r ? ProcessCounter::read_bytes : ProcessCounter::rchar);
        }
        return d;
    }

    SnapshotSource source_;
    bool opened_ = false;
    os::ProcessSnapshot probe_;
    Tier0Delta cost_;
    std::vector<Status> statuses_;
};

}  // namespace

std::unique_ptr<CountingTier> make_tier0(SnapshotSource source) {
    return std::make_unique<Tier0>(std::move(source));
}

}  // namespace glint::engine::tier0

namespace glint::engine {

std::unique_ptr<CountingTier> make_tier0_tier() {
    auto reader = std::make_shared<os::ProcessCounterReader>();
    return tier0::make_tier0([reader] { return reader->snapshot(); });
}

}  // namespace glint::engine
