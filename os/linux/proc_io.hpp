// os/linux/proc_io.hpp: parsing /proc/<pid>/io ("rchar: 123\nwchar: ...\n"). Pure.
#pragma once

#include <string_view>

#include "os/process_counters.hpp"

namespace glint::os::linux_ {

// Fills the /proc/<pid>/io fields found in `text` into `snapshot` (values and presence).
// Unknown keys (cancelled_write_bytes, future additions) and malformed lines are skipped; a
// field that is missing stays absent. Returns the number of fields filled.
int parse_proc_io(std::string_view text, ProcessSnapshot& snapshot);

}  // namespace glint::os::linux_
