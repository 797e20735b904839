#include "engine/profile/sampling_choice.hpp"

#include <algorithm>
#include <cerrno>

#include <fmt/format.h>

#include "engine/counting/messages.hpp"

namespace glint::engine::profile {
namespace {

// Opens `spec`, with a smaller ring when the default one is refused for lack of permission
// (the locked-memory limit, perf_event_mlock_kb); `spec` ends as what opened. 0 or the errno.
int try_open(os::SamplerSpec& spec, std::vector<std::string>& notes) {
    os::Sampler s;
    const int error = s.open(spec);
    if (error == 0 || !counting::is_permission_error(error)) return error;
    os::SamplerSpec small = spec;
    small.data_pages = kSmallRingPages;
    if (s.open(small) != 0) return error;
    notes.push_back(
        fmt::format("the ring buffer is {} pages: the kernel refused {} ({}; locked-memory limit)",
                    kSmallRingPages, kRingPages, counting::describe_errno(error)));
    spec = small;
    return 0;
}

}  // namespace

std::string describe_rate(const os::SamplerSpec& spec) {
    if (spec.period == 0) return fmt::format("at ~{} Hz (kernel-adjusted period)", spec.frequency);
    if (os::is_timer(spec.event)) {
        const double us = static_cast<double>(spec.period) / 1e3;
        return fmt::format("every {:g} µs of CPU time ({:g} Hz)", us,
                           1e9 / static_cast<double>(spec.period));
    }
    return fmt::format("every {} {}", spec.period, os::sample_event_name(spec.event));
}

SamplingPlan plan_sampling(std::uint64_t hz, const std::string& pmu_root) {
    SamplingPlan plan;
    os::SamplerSpec cycles;
    cycles.event = os::SampleEvent::cycles;
    cycles.frequency = hz;
    cycles.exclude_kernel = true;
    cycles.data_pages = kRingPages;
    const int cycles_error = try_open(cycles, plan.notes);
    if (cycles_error == 0) {
        const std::optional<int> advertised = os::pmu_max_precise(pmu_root);
        for (int p = std::min(advertised.value_or(0), 3); p >= 1; --p) {
            os::SamplerSpec precise = cycles;
            precise.precise_ip = static_cast<std::uint8_t>(p);
            os::Sampler s;
            if (s.open(precise) == 0) {
                cycles = precise;
                break;
            }
        }
        plan.ok = true;
        plan.spec = cycles;
        plan.how = fmt::format("cycles overflow interrupts {}", describe_rate(cycles));
        plan.precise_offered = cycles.precise_ip > 0;
        if (plan.precise_offered)
            plan.precise = fmt::format(
                "precise_ip={} (the PMU's precise sampling, PEBS or IBS, "
                "bounds the skid of each sampled IP)",
                cycles.precise_ip);
        else if (!advertised || *advertised == 0)
            plan.precise =
                "the CPU PMU advertises no precise sampling (no caps/max_precise above "
                "0 in sysfs), so sampled IPs may skid a few instructions";
        else
            plan.precise = fmt::format(
                "the CPU PMU advertises precise_ip up to {}, but cycles "
                "with precise_ip 1..{} does not open",
                *advertised, std::min(*advertised, 3));
        return plan;
    }
    const os::PmuInventory pmus = os::list_pmus(pmu_root);
    plan.precise = "no hardware sampling event opens here, so nothing precise can be sampled";
    // Without a CPU PMU the cause in a few words (--capabilities' scalar-counting has the facts).
    const bool no_pmu = pmus.listed && pmus.cpu_pmus.empty();
    plan.notes.insert(
        plan.notes.begin(),
        "no cycles overflow sampling (" +
            (no_pmu ? counting::no_hardware_gist(pmus, pmu_root)
                    : counting::no_hardware_reason(
                          pmus, os::OpenFailure{os::Event::cycles, cycles_error, 0}, pmu_root)) +
            "): the software timer samples instead");
    os::SamplerSpec timer;
    timer.event = os::SampleEvent::cpu_clock;
    timer.period = hz > 0 ? std::max<std::uint64_t>(1, 1000000000 / hz) : 100000;
    timer.exclude_kernel = true;
    timer.data_pages = kRingPages;
    std::vector<std::string> timer_notes;
    const int timer_error = try_open(timer, timer_notes);
    if (timer_error == 0) {
        plan.ok = true;
        plan.spec = timer;
        plan.how = fmt::format("cpu-clock timer {}", describe_rate(timer));
        plan.notes.insert(plan.notes.end(), timer_notes.begin(), timer_notes.end());
        return plan;
    }
    plan.reason =
        fmt::format("no sampling event opens: cycles failed with {}, cpu-clock with {} ({})",
                    counting::describe_errno(cycles_error), counting::describe_errno(timer_error),
                    counting::describe_paranoid(os::perf_event_paranoid()));
    plan.remedy = counting::is_permission_error(timer_error) ? counting::permission_remedy() : "";
    return plan;
}

Status overflow_sampling_status(const SamplingPlan& plan) {
    if (!plan.ok)
        return {"overflow-sampling", Status::State::unavailable, plan.reason, plan.remedy};
    std::string reason = "--profile samples user mode with " + plan.how +
                         " and frame-pointer call stacks (PERF_SAMPLE_CALLCHAIN)";
    for (const auto& n : plan.notes) reason += "; " + n;
    return {"overflow-sampling", Status::State::available, reason, ""};
}

Status precise_data_source_status(const SamplingPlan& plan) {
    return {"precise-data-source", Status::State::not_built,
            "glint samples no data addresses, data sources or load latencies (PEBS/IBS/SPE "
            "memory sampling); instruction pointers: " +
                plan.precise,
            "perf mem / perf c2c on a host whose PMU has them"};
}

}  // namespace glint::engine::profile
