// No OS back end: the process's threads are unknown.
#include "os/process_tasks.hpp"

namespace glint::os {

TaskCensus process_tasks() { return {}; }

}  // namespace glint::os
