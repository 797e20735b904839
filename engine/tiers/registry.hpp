// engine/tiers/registry.hpp: every counting tier this build has, in column order. Adding a
// tier is one line in registry.cpp.
#pragma once

#include <memory>
#include <vector>

#include "engine/tiers/tier.hpp"

namespace glint::engine {

std::vector<std::unique_ptr<Tier>> make_tiers();

}  // namespace glint::engine
