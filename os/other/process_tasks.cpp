// No OS back end: the process's threads and child processes are unknown.
#include "os/process_tasks.hpp"

namespace glint::os {

TaskCensus process_tasks() { return {}; }
ChildCensus process_children() { return {}; }

}  // namespace glint::os
