#include "engine/tiers/registry.hpp"

namespace glint::engine {

std::vector<std::unique_ptr<Tier>> make_tiers() {
    std::vector<std::unique_ptr<Tier>> tiers;
    return tiers;
}

}  // namespace glint::engine
