// No OS back end: neither steal nor run delay can be read.
#include "os/time_lost.hpp"

namespace glint::os {

StealReading read_steal(const SystemRoots&) {
    return {false, "glint has no back end for this OS: hypervisor steal time is unknown"};
}

RunDelayReading read_run_delay(const SystemRoots&) {
    return {false, "glint has no back end for this OS: the thread's run delay is unknown"};
}

}  // namespace glint::os
