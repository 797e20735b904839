#include "engine/stability/case_watch.hpp"

#include <chrono>
#include <cstring>
#include <thread>

#include "engine/counting/messages.hpp"
#include "os/cpu_affinity.hpp"

namespace glint::engine {

CaseWatcher::CaseWatcher() {
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
    start_switches_ = os::thread_switches();
    start_migrations_ok_ = read_migrations(start_migrations_);
    start_cpu_ = os::current_cpu();
}

CaseStability CaseWatcher::end() {
    CaseStability s;
    const int end_cpu = os::current_cpu();
    std::uint64_t migrations = 0;
    if (start_migrations_ok_ && read_migrations(migrations)) s.migrations = migrations - start_migrations_;
    const os::ThreadSwitches switches = os::thread_switches();
    if (start_switches_.ok && switches.ok)
        s.preemptions = switches.involuntary - start_switches_.involuntary;
    if (start_cpu_ >= 0) s.cpus.push_back(start_cpu_);
    if (end_cpu >= 0 && end_cpu != start_cpu_) s.cpus.push_back(end_cpu);
    return s;
}

}  // namespace glint::engine
