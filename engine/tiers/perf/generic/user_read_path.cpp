// The user-space read path where this build has none (an arch without one, or not Linux):
// every request for it is served by the syscall path, disclosed as "not built".
#include <fmt/format.h>

#include "arch/arch.hpp"
#include "engine/tiers/perf/read_path.hpp"

namespace glint::engine::perf {

UserReadOffer offer_user_read_path(os::PerfGroup&, bool) {
    UserReadOffer offer;
    offer.state = Status::State::not_built;
    offer.reason = fmt::format("this build has no user-space counter reads for its back end "
                               "({}): every counter is read with read(2)",
                               arch::native::kName);
    return offer;
}

}  // namespace glint::engine::perf
