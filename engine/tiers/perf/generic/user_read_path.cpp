// engine/tiers/perf/generic/user_read_path.cpp: no user-space read path. Compiled for an arch
// without one (GLINT_ARCH=generic), for any arch whose engine folder has no implementation
// yet, and off Linux (the user paths read Linux's perf mmap pages): every counter is read
// with read(2), and an explicit request for a user path is disclosed as not built.
#include <string>

#include "arch/arch.hpp"
#include "engine/tiers/perf/read_path.hpp"

namespace glint::engine::perf {

std::unique_ptr<ReadPath> make_user_read_path(os::PerfGroup&, Status& refusal) {
    refusal = Status{"perf.read-path", Status::State::not_built,
                     std::string("this build has no user-space counter reads for ") +
                         arch::native::kName + " (--perf-read=rdpmc)",
                     ""};
    return nullptr;
}

}  // namespace glint::engine::perf
