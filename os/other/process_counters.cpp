// Honest stub off Linux: no getrusage/procfs source is wired here, so every counter is absent.
#include <cerrno>

#include "os/process_counters.hpp"

namespace glint::os {

ProcessCounterReader::~ProcessCounterReader() = default;

ProcessSnapshot ProcessCounterReader::snapshot() {
    ProcessSnapshot s;
    s.io_error = ENOSYS;
    return s;
}

}  // namespace glint::os
