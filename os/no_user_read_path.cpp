// os/no_user_read_path.cpp: no user-space read path. Compiled where the selected OS has no home
// for the selected arch (os/<os>/<arch>/: GLINT_ARCH=generic, an arch without one, or not Linux,
// whose perf mmap pages the user paths read): every counter is read with read(2), and the user
// path is disclosed as "not built".
#include "arch/arch.hpp"
#include "os/read_path.hpp"

namespace glint::os {

UserReadOffer offer_user_read_path(PerfGroup&, bool) {
    UserReadOffer offer;
    offer.state = UserReadOffer::State::not_built;
    offer.reason = std::string(
                       "this build compiled no user-space read path (GLINT_ARCH=generic, "
                       "an arch without one, or not Linux; host ISA ") +
                   std::string(arch::native::kName) + "): every counter is read with read(2)";
    return offer;
}

}  // namespace glint::os
