// engine/tiers/perf/generic/user_read_path.cpp: no user-space read path. Compiled for an arch
// without one (GLINT_ARCH=generic), for any arch whose engine/tiers/perf/ folder has no
// implementation, and off Linux (the user paths read Linux's perf mmap pages): every counter
// is read with read(2), and the user path is disclosed as "not built".
#include <fmt/format.h>

#include "arch/arch.hpp"
#include "engine/tiers/perf/read_path.hpp"

namespace glint::engine::perf {

UserReadOffer offer_user_read_path(os::PerfGroup&, bool) {
    UserReadOffer offer;
    offer.state = Status::State::not_built;
    offer.reason = fmt::format("this build compiled no user-space read path (GLINT_ARCH=generic, "
                               "an arch without one, or not Linux; host ISA {}): every counter is "
                               "read with read(2)",
                               arch::native::kName);
    return offer;
}

}  // namespace glint::engine::perf
