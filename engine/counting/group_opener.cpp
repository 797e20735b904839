#include "engine/counting/group_opener.hpp"

#include <algorithm>
#include <cerrno>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "engine/counting/messages.hpp"
#include "engine/counting/pass_math.hpp"

namespace glint::engine::counting {
namespace {

using os::Event;
using State = Status::State;

// One group opened with the permission and per-member fallbacks, or the failure that ended it.
struct Attempt {
    os::PerfGroup group;
    bool opened = false;
    bool user_only = false;
    int kernel_refusal = 0;  // errno of the refused kernel+user open, 0 when none
    std::vector<std::pair<Event, int>> unsupported;
    os::OpenFailure failure;
};

Attempt open_with_fallbacks(std::vector<Event> events, const OpenRequest& request) {
    Attempt a;
    os::GroupSpec spec{std::move(events), false, request.inherit};
    spec.user_access = request.user_access;
    spec.pmu_root = request.pmu_root;
    while (true) {
        os::OpenFailure failure;
        if (a.group.open(spec, failure)) {
            a.opened = true;
            a.user_only = spec.exclude_kernel;
            return a;
        }
        if (is_permission_error(failure.error) && !spec.exclude_kernel) {
            a.kernel_refusal = failure.error;
            spec.exclude_kernel = true;
            continue;
        }
        if (is_unsupported_error(failure.error) && failure.event != spec.events.front() &&
            os::is_hardware(failure.event)) {
            a.unsupported.emplace_back(failure.event, failure.error);
            std::erase(spec.events, failure.event);
            continue;
        }
        a.failure = failure;
        return a;
    }
}

struct Calibration {
    bool read_ok = false;
    std::string failure;  // why it could not be read
    std::uint64_t enabled = 0;
    std::uint64_t running = 0;
    double ratio = 0;  // running / enabled (0 when never enabled)
};

Calibration calibrate(os::PerfGroup& group, std::chrono::microseconds spin) {
    Calibration c;
    os::GroupReading before, after;
    errno = 0;
    const bool started = group.reset() && group.read(before) && group.enable();
    if (started) {
        const auto end = std::chrono::steady_clock::now() + spin;
        while (std::chrono::steady_clock::now() < end) {}
    }
    const bool stopped = started && group.disable() && group.read(after);
    const GroupDelta d = delta_between(before, after);
    if (!stopped || !d.ok) {
        c.failure = errno != 0 ? describe_errno(errno) : std::string("a short read");
        return c;
    }
    c.read_ok = true;
    c.enabled = d.enabled;
    c.running = d.running;
    c.ratio = d.enabled == 0 ? 0.0 : running_ratio(d.enabled, d.running);
    return c;
}

bool has_llc_pair(const os::GroupSpec& spec) {
    return std::ranges::find(spec.events, Event::cache_references) != spec.events.end() ||
           std::ranges::find(spec.events, Event::cache_misses) != spec.events.end();
}

void make_unavailable(OpenedGroup& out, std::string reason, std::string remedy) {
    out.group.close();
    out.kind = GroupKind::none;
    out.statuses.insert(out.statuses.begin(),
                        Status{"perf", State::unavailable, std::move(reason), std::move(remedy)});
}

void fail_open(OpenedGroup& out, const os::OpenFailure& failure, std::optional<int> paranoid,
               const std::string& prefix) {
    std::string reason, remedy;
    if (is_permission_error(failure.error)) {
        reason = permission_refused_reason(failure.error, paranoid);
        remedy = permission_remedy();
    } else {
        reason = open_failed_reason(failure);
    }
    make_unavailable(out, prefix.empty() ? reason : prefix + "; " + reason, remedy);
}

// Calibrates the attempt's group, applies the multiplexing policy, writes the statuses.
void finish(OpenedGroup& out, Attempt attempt, GroupKind kind, const OpenRequest& request,
            std::optional<int> paranoid) {
    out.group = std::move(attempt.group);
    out.kind = kind;
    out.user_only = attempt.user_only;
    std::vector<Status> details;
    if (kind == GroupKind::software)
        details.push_back({"perf.hardware-events", State::unavailable, out.hardware_absent,
                           no_hardware_remedy()});
    if (out.user_only)
        details.push_back({"perf.user-only", State::degraded,
                           user_only_reason(attempt.kernel_refusal, paranoid), user_only_remedy()});
    for (auto [event, error] : attempt.unsupported) {
        out.unsupported.push_back(event);
        details.push_back(
            {"perf.member", State::degraded, member_unsupported_reason(event, error), ""});
    }

    Calibration cal = calibrate(out.group, request.spin);
    if (!cal.read_ok) return make_unavailable(out, read_failed_reason(cal.failure), "");
    const bool rotated = cal.running == 0 || cal.ratio < kExactRatio;
    if (kind == GroupKind::hardware && rotated && has_llc_pair(out.group.spec()) &&
        !(request.scaled && cal.running > 0)) {
        os::GroupSpec reduced = out.group.spec();
        std::erase(reduced.events, Event::cache_references);
        std::erase(reduced.events, Event::cache_misses);
        const std::string why = llc_dropped_reason(cal.ratio, cal.running);
        os::PerfGroup smaller;
        os::OpenFailure failure;
        out.group.close();
        if (!smaller.open(reduced, failure)) return fail_open(out, failure, paranoid, why);
        out.group = std::move(smaller);
        out.llc_dropped = true;
        details.push_back({"perf.llc-pair", State::degraded, why, llc_dropped_remedy()});
        cal = calibrate(out.group, request.spin);
        if (!cal.read_ok) return make_unavailable(out, read_failed_reason(cal.failure), "");
    }
    if (cal.running == 0)
        return make_unavailable(out, never_scheduled_reason(cal.enabled), never_scheduled_remedy());
    out.open_ratio = cal.ratio;
    out.multiplexed = cal.ratio < kExactRatio;
    if (out.scaled) details.push_back({"perf.scaled", State::available, scaled_mode_reason(), ""});
    if (out.multiplexed)
        details.push_back({"perf.multiplexed", State::degraded,
                           multiplexed_at_open_reason(cal.ratio), llc_dropped_remedy()});

    const bool degraded =
        std::ranges::any_of(details, [](const Status& s) { return s.state != State::available; });
    const std::string scope = out.user_only ? "user-only" : "kernel+user";
    std::string reason =
        kind == GroupKind::hardware
            ? fmt::format("hardware group: {} ({})", join_events(out.group.spec().events), scope)
            : fmt::format("software group only: {} ({}); {}", join_events(out.group.spec().events),
                          scope, out.hardware_absent);
    std::string remedy;
    for (const auto& s : details)
        if (s.state != State::available && !s.remedy.empty()) {
            remedy = s.remedy;
            break;
        }
    out.statuses.push_back(Status{"perf", degraded ? State::degraded : State::available,
                                  std::move(reason), std::move(remedy)});
    out.statuses.insert(out.statuses.end(), details.begin(), details.end());
}

}  // namespace

std::vector<Event> hardware_events() {
    return {Event::cycles,           Event::instructions, Event::branches,   Event::branch_misses,
            Event::cache_references, Event::cache_misses, Event::page_faults};
}

std::vector<Event> software_events() {
    return {Event::task_clock, Event::page_faults, Event::context_switches, Event::cpu_migrations};
}

OpenedGroup open_counting_group(const OpenRequest& request) {
    OpenedGroup out;
    out.scaled = request.scaled;
    out.inherit = request.inherit;
    const std::optional<int> paranoid = os::perf_event_paranoid();

    Attempt hardware = open_with_fallbacks(hardware_events(), request);
    if (hardware.opened) {
        finish(out, std::move(hardware), GroupKind::hardware, request, paranoid);
        return out;
    }
    const os::OpenFailure& failure = hardware.failure;
    if (!is_unsupported_error(failure.error) || !os::is_hardware(failure.event)) {
        fail_open(out, failure, paranoid, "");
        return out;
    }
    const os::PmuInventory pmus = os::list_pmus(request.pmu_root);
    out.hardware_absent = no_hardware_reason(pmus, failure, request.pmu_root);
    out.hardware_absent_gist = no_hardware_gist(pmus, request.pmu_root);
    Attempt software = open_with_fallbacks(software_events(), request);
    if (!software.opened) {
        fail_open(out, software.failure, paranoid, out.hardware_absent);
        return out;
    }
    finish(out, std::move(software), GroupKind::software, request, paranoid);
    return out;
}

}  // namespace glint::engine::counting
