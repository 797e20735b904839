// Honest stubs off Linux: perf_event does not exist here, so every group open fails with
// ENOSYS (the engine reports "unavailable" with that reason) and every probe says "absent".
#include <cerrno>

#include "os/perf_events.hpp"
#include "os/perf_probes.hpp"

namespace glint::os {

PerfGroup::~PerfGroup() = default;
PerfGroup::PerfGroup(PerfGroup&&) noexcept = default;
PerfGroup& PerfGroup::operator=(PerfGroup&&) noexcept = default;

bool PerfGroup::open(const GroupSpec& spec, OpenFailure& failure) {
    failure = OpenFailure{spec.events.empty() ? Event::cycles : spec.events.front(), ENOSYS, 0};
    errno = ENOSYS;
    return false;
}
void PerfGroup::close() {}
bool PerfGroup::enable() {
    errno = ENOSYS;
    return false;
}
bool PerfGroup::disable() {
    errno = ENOSYS;
    return false;
}
bool PerfGroup::reset() {
    errno = ENOSYS;
    return false;
}
bool PerfGroup::read(GroupReading& out) const {
    out = GroupReading{};
    errno = ENOSYS;
    return false;
}
int PerfGroup::map_pages() { return ENOSYS; }
void PerfGroup::unmap_pages() {}

PmuInventory list_pmus(const std::string&) { return {}; }
std::optional<int> perf_event_paranoid() { return std::nullopt; }
std::optional<int> pmu_max_precise(const std::string&) { return std::nullopt; }
TracepointProbe probe_tracepoint_counting() {
    TracepointProbe probe;
    probe.outcome = TracepointProbe::Outcome::not_supported;
    probe.error = ENOSYS;
    return probe;
}
LibraryProbe probe_library(const char* soname, const char*) {
    LibraryProbe probe;
    probe.soname = soname;
    probe.supported = false;
    probe.error = "libpfm4 and perf_event are Linux-only";
    return probe;
}

}  // namespace glint::os
