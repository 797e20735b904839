#include "engine/stability/case_watch.hpp"

#include <chrono>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "engine/counting/messages.hpp"
#include "engine/timing/clock.hpp"
#include "os/cpu_affinity.hpp"

namespace glint::engine {
namespace {

// The steal of one reading: the CPU's line, or (cpu < 0) the aggregate line per CPU.
std::optional<double> steal_ticks(const os::StealReading& r, int cpu) {
    if (cpu >= 0) {
        const auto ticks = r.of_cpu(static_cast<unsigned>(cpu));
        return ticks ? std::optional<double>(static_cast<double>(*ticks)) : std::nullopt;
    }
    if (r.per_cpu.empty()) return std::nullopt;
    return static_cast<double>(r.all) / static_cast<double>(r.per_cpu.size());
}

}  // namespace

TimeLost time_lost_between(const os::StealReading& steal_before,
                           const os::StealReading& steal_after,
                           const os::RunDelayReading& delay_before,
                           const os::RunDelayReading& delay_after, double wall_ns,
                           const CaseStability& seen) {
    TimeLost t;
    t.wall_ns = wall_ns;
    if (!steal_before.ok || !steal_after.ok) {
        t.steal_unknown = !steal_before.ok ? steal_before.why : steal_after.why;
    } else {
        const bool stayed = seen.cpus.size() == 1 && (!seen.migrations || *seen.migrations == 0);
        const int cpu = stayed ? seen.cpus.front() : -1;
        const auto a = steal_ticks(steal_before, cpu), b = steal_ticks(steal_after, cpu);
        t.steal_tick_ns = static_cast<double>(steal_after.tick_ns);
        if (!a || !b)
            t.steal_unknown = cpu >= 0 ? fmt::format("/proc/stat has no line for cpu{}", cpu)
                                       : "/proc/stat has no per-CPU lines";
        else if (*b < *a) t.steal_unknown = "/proc/stat's steal went backwards";
        else {
            t.steal_ns = (*b - *a) * t.steal_tick_ns;
            if (cpu >= 0) t.steal_cpu = cpu;
        }
    }
    if (!delay_before.ok || !delay_after.ok)
        t.run_delay_unknown = !delay_before.ok ? delay_before.why : delay_after.why;
    else if (delay_after.ns < delay_before.ns)
        t.run_delay_unknown = "schedstat's run delay went backwards";
    else t.run_delay_ns = static_cast<double>(delay_after.ns - delay_before.ns);
    return t;
}

CaseWatcher::CaseWatcher(os::SystemRoots roots) : roots_(std::move(roots)) {
    const os::StealReading steal = os::read_steal(roots_);
    steal_why_ = steal.ok ? "" : steal.why;
    steal_tick_ns_ = steal.tick_ns;
    const os::RunDelayReading delay = os::read_run_delay(roots_);
    run_delay_why_ = delay.ok ? "" : delay.why;
    os::GroupSpec spec;
    spec.events = {os::Event::cpu_migrations};
    os::OpenFailure failure;
    if (!group_.open(spec, failure)) {
        why_ = "cpu-migrations does not open: " + counting::describe_errno(failure.error);
        return;
    }
    if (!group_.enable()) {
        why_ = "cpu-migrations does not start: " + counting::describe_errno(errno);
        group_.close();
        return;
    }
    // The kernel counts a migration when the moved thread is next scheduled in, so one that
    // happened before the counter opened (pinning the thread, --pin) would land in the first
    // case. A short sleep schedules the thread out and in once, settling it here.
    std::this_thread::sleep_for(std::chrono::microseconds(50));
}

bool CaseWatcher::read_migrations(std::uint64_t& out) const {
    if (!group_.is_open()) return false;
    os::GroupReading r;
    if (!group_.read(r) || r.size < 1) return false;
    out = r.values[0];
    return true;
}

void CaseWatcher::begin() {
    start_steal_ = os::read_steal(roots_);
    start_delay_ = os::read_run_delay(roots_);
    start_switches_ = os::thread_switches();
    start_migrations_ok_ = read_migrations(start_migrations_);
    start_cpu_ = os::current_cpu();
    start_wall_ns_ = now_ns();
}

CaseStability CaseWatcher::end() {
    const std::int64_t end_wall_ns = now_ns();
    CaseStability s;
    const int end_cpu = os::current_cpu();
    std::uint64_t migrations = 0;
    if (start_migrations_ok_ && read_migrations(migrations))
        s.migrations = migrations - start_migrations_;
    const os::ThreadSwitches switches = os::thread_switches();
    if (start_switches_.ok && switches.ok)
        s.preemptions = switches.involuntary - start_switches_.involuntary;
    if (start_cpu_ >= 0) s.cpus.push_back(start_cpu_);
    if (end_cpu >= 0 && end_cpu != start_cpu_) s.cpus.push_back(end_cpu);
    if (start_wall_ns_ == 0) return s;  // begin() did not run: no pass to speak of
    const os::RunDelayReading delay = os::read_run_delay(roots_);
    const os::StealReading steal = os::read_steal(roots_);
    s.time_lost = time_lost_between(start_steal_, steal, start_delay_, delay,
                                    static_cast<double>(end_wall_ns - start_wall_ns_), s);
    start_wall_ns_ = 0;
    return s;
}

}  // namespace glint::engine
