#include "engine/tiers/syscalls/syscall_tier.hpp"

#include <cerrno>
#include <cmath>

#include <fmt/format.h>

#include "engine/counting/event_counter.hpp"
#include "engine/counting/messages.hpp"
#include "engine/tiers/preexisting_threads.hpp"
#include "engine/tiers/syscalls/syscall_names.hpp"
#include "os/perf_probes.hpp"
#include "os/tracefs.hpp"

namespace glint::engine::syscalls {
namespace {

using State = Status::State;
using Lookup = os::TracepointLookup;

std::string roots_text(const std::vector<std::string>& roots) {
    std::string text;
    for (std::size_t i = 0; i < roots.size(); ++i)
        text += (i == 0 ? "" : i + 1 == roots.size() ? " nor " : ", ") + roots[i];
    return text;
}

std::string lookup_reason(const Lookup& l) {
    switch (l.outcome) {
        case Lookup::Outcome::found:
            return {};
        case Lookup::Outcome::missing:
            return fmt::format("no tracepoint {} ({} does not exist)", l.event.name, l.path);
        case Lookup::Outcome::unreadable:
            return fmt::format("{} is unreadable: {} (tracefs is root-only on most systems)",
                               l.path, counting::describe_errno(l.error));
        case Lookup::Outcome::not_supported:
            break;
    }
    return "tracepoints are a Linux perf_event feature; this OS has none";
}

std::string refusal_reason(int error) {
    std::string reason =
        "perf_event_open refused the tracepoint: " + counting::describe_errno(error);
    if (counting::is_permission_error(error))
        reason += fmt::format(
            " ({}); counting tracepoints needs perf_event_paranoid <= 1 or "
            "CAP_PERFMON",
            counting::describe_paranoid(os::perf_event_paranoid()));
    return reason;
}

class SyscallTier final : public CountingTier, public RunExtension {
  public:
    RunExtension* extension() override { return this; }

    explicit SyscallTier(std::vector<std::string> roots) : roots_(std::move(roots)) {}
    ~SyscallTier() override { close(); }

    std::string_view source() const override { return "syscall"; }

    bool wanted(const TierRequest& request) const override {
        return syscall_columns_named(request);
    }

    // --syscalls beside an explicit --metrics list keeps its columns visible.
    std::vector<std::string> kept_columns(const TierRequest& request) const override {
        return syscall_flag_selectors(request, family());
    }

    std::vector<Status> open(const TierRequest& request) override {
        close();
        opened_ = true;
        statuses_.clear();
        columns_.clear();
        columns_.push_back({kTotalColumn, "raw_syscalls", "sys_enter"});
        for (const auto& name : requested_syscalls(request))
            columns_.push_back({kColumnPrefix + name, "syscalls", "sys_enter_" + name});

        tracefs_ = os::find_tracefs(roots_);
        if (tracefs_.empty()) {
            const std::string reason =
                roots_.empty() ? lookup_reason(Lookup{})
                               : fmt::format(
                                     "tracefs is not mounted (neither {} has events/), so "
                                     "tracepoint ids cannot be read",
                                     roots_text(roots_));
            return fail(reason, roots_.empty()
                                    ? ""
                                    : "mount -t tracefs nodev /sys/kernel/tracing (as root)");
        }
        std::vector<os::EventSpec> specs;
        std::vector<std::size_t> index;
        for (std::size_t i = 0; i < columns_.size(); ++i) {
            Column& c = columns_[i];
            const Lookup l = os::lookup_tracepoint(tracefs_, c.system, c.event);
            c.reason = lookup_reason(l);
            if (l.outcome == Lookup::Outcome::unreadable && i == 0)
                return fail(c.reason,
                            "run as root, or make tracefs readable (0700 on hardened hosts)");
            if (l.outcome == Lookup::Outcome::missing && i == 0)
                return fail(c.reason + ": this kernel has no syscall tracepoints",
                            "a kernel built with CONFIG_FTRACE_SYSCALLS");
            if (l.outcome != Lookup::Outcome::found) continue;
            c.position = specs.size();
            specs.push_back(l.event);
            index.push_back(i);
        }
        const bool opened = counter_.open(specs, /*inherit=*/true);
        // Under --perf-inherit, like the other tiers: the threads already there are counted too.
        if (opened && request.perf.inherit) others_.open(counter_.spec(), "syscall");
        for (std::size_t k = 0; k < index.size(); ++k) {
            Column& c = columns_[index[k]];
            const int refusal = k < counter_.requested() ? counter_.refusal(k) : EINVAL;
            if (opened && refusal == 0) {
                c.counting = true;
                c.reason.clear();
            } else {
                c.reason = refusal_reason(refusal != 0 ? refusal : EINVAL);
                c.remedy = counting::is_permission_error(refusal)
                               ? "sysctl kernel.perf_event_paranoid=1, or CAP_PERFMON"
                               : "";
            }
        }
        if (!opened) return fail(columns_.front().reason, columns_.front().remedy);

        std::size_t counting = 0;
        for (const auto& c : columns_) counting += c.counting;
        statuses_.push_back(
            {"syscalls", counting == columns_.size() ? State::available : State::degraded,
             fmt::format("tracepoint group from {}: raw_syscalls:sys_enter (total){}, inherit "
                         "(threads created later are counted){}",
                         tracefs_,
                         columns_.size() > 1
                             ? fmt::format(" + {} syscalls:sys_enter_<name>", columns_.size() - 1)
                             : "",
                         request.perf.inherit
                             ? ", and the threads that existed before the open (a group on "
                               "each, read around each pass)"
                             : "; threads that existed before the open are not counted "
                               "(--perf-inherit counts them)"),
             ""});
        for (const auto& c : columns_)
            if (!c.counting)
                statuses_.push_back(
                    {"syscalls.column", State::unavailable, c.name + ": " + c.reason, c.remedy});
        return statuses_;
    }

    std::vector<catalog::MetricDescriptor> family() const override {
        std::vector<catalog::MetricDescriptor> out;
        if (!opened_) {
            catalog::MetricDescriptor d = describe(Column{kTotalColumn, "", ""});
            d.reason = "not opened: --syscalls (or a syscall column named in --metrics)";
            out.push_back(std::move(d));
            return out;
        }
        for (const auto& c : columns_) out.push_back(describe(c));
        return out;
    }

    std::vector<std::string> header_notes() const override {
        std::vector<std::string> lines;
        for (const auto& s : statuses_) lines.push_back("syscalls: " + with_remedy(s));
        const counting::BracketCost& cost = counter_.open_cost();
        if (counter_.usable() && cost.measured && columns_.front().counting)
            lines.push_back(fmt::format(
                "syscalls: bracket self-cost at open (median of {} empty brackets): {:g} "
                "syscall(s) (the DISABLE ioctl); each pass subtracts its own interleaved empty "
                "brackets",
                cost.samples, cost.per_bracket[0]));
        return lines;
    }

    Json meta() const override {
        Json m = status_meta(statuses_);
        m["tracefs"] = tracefs_.empty() ? Json() : Json(tracefs_);
        m["inherit"] = true;
        m["readPath"] = counter_.usable() ? Json("syscall") : Json();
        Json columns = Json::array();
        for (const auto& c : columns_) {
            Json j = Json::object();
            j["name"] = c.name;
            j["tracepoint"] = c.system + ":" + c.event;
            counter_.add_column_facts(j, c.position, c.counting, c.reason);
            columns.push_back(std::move(j));
        }
        m["columns"] = std::move(columns);
        return m;
    }

    PassResult count(const Workload& work, const PassPlan& plan) override {
        // Under --perf-inherit the threads alive at the open are read around the pass.
        std::vector<CounterColumn> columns;
        for (const auto& c : columns_) columns.push_back({describe(c), c.position, c.counting});
        return count_with_preexisting(counter_, others_, columns, work, plan);
    }

    void close() override {
        others_.close();
        counter_.close();
    }

  private:
    struct Column {
        std::string name;          // "syscalls", "sc:write"
        std::string system;        // tracefs event system
        std::string event;         // tracefs event name
        std::size_t position = 0;  // index among the specs handed to the counter
        bool counting = false;
        std::string reason;
        std::string remedy;
    };

    std::vector<Status> fail(const std::string& reason, const std::string& remedy) {
        counter_.close();
        for (auto& c : columns_) {
            c.counting = false;
            if (c.reason.empty() || &c == &columns_.front()) c.reason = reason;
        }
        statuses_ = {{"syscalls", State::unavailable, reason, remedy}};
        return statuses_;
    }

    catalog::MetricDescriptor describe(const Column& c) const {
        catalog::MetricDescriptor d;
        d.name = c.name;
        d.header = c.name;
        d.format = catalog::Format::count;
        d.cls = catalog::MetricClass::quantitative;
        d.source = "syscall";
        d.available = c.counting;
        d.reason = c.counting ? "" : c.reason;
        d.is_default = counter_.usable();
        return d;
    }

    std::vector<std::string> roots_;
    bool opened_ = false;
    std::string tracefs_;
    std::vector<Column> columns_;
    std::vector<Status> statuses_;
    counting::EventCounter counter_;
    PreexistingThreads others_;  // under --perf-inherit: the threads alive at the open
};

}  // namespace

std::unique_ptr<CountingTier> make_syscall_tier(std::vector<std::string> tracefs_roots) {
    return std::make_unique<SyscallTier>(std::move(tracefs_roots));
}

}  // namespace glint::engine::syscalls

namespace glint::engine {

std::unique_ptr<CountingTier> make_syscall_tier() {
    return syscalls::make_syscall_tier(os::default_tracefs_roots());
}

}  // namespace glint::engine
