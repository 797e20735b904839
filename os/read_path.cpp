// The OS-neutral pieces of os/read_path.hpp (portable: compiled for every OS back end).
#include "os/read_path.hpp"

#include "os/errors.hpp"

namespace glint::os {

GroupDelta delta_between(const GroupReading& before, const GroupReading& after) {
    GroupDelta d;
    if (!before.ok || !after.ok || before.size != after.size) return d;
    if (after.enabled < before.enabled || after.running < before.running) return d;
    d.size = after.size;
    d.enabled = after.enabled - before.enabled;
    d.running = after.running - before.running;
    for (std::size_t i = 0; i < d.size; ++i) {
        if (after.values[i] < before.values[i]) return GroupDelta{};
        d.counts[i] = after.values[i] - before.values[i];
    }
    d.ok = true;
    return d;
}

std::string generic_members_reason(const PerfGroup& group) {
    if (group.spec().events.size() == group.size()) return {};
    return "the group was opened from event specs (raw:, pfm:, tracepoints), which are read with "
           "read(2)";
}

std::string map_pages_or_reason(PerfGroup& group) {
    if (group.pages_mapped()) return {};
    const int error = group.map_pages();
    if (error == 0) return {};
    return "the group's perf pages could not be mapped (" + describe_errno(error) + ")" +
           (group.spec().inherit
                ? ": the kernel maps no pages for inherited (--perf-inherit) events"
                : "");
}

}  // namespace glint::os
