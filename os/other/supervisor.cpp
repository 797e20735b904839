// os/supervisor.hpp without an OS back end: no child processes, so no supervision.
#include "os/supervisor.hpp"

namespace glint::os {

SupervisedPage* supervise_process(UnfinishedMessage, UnfinishedMessage) { return nullptr; }

}  // namespace glint::os
