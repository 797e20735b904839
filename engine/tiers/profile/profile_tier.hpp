// engine/tiers/profile/profile_tier.hpp: --profile, a sampled flat profile of every case.
//
// A run extension with a pass of its own, adding no columns: after a case's timing and counting
// passes it runs the sampling pass (profile/sampled_pass.hpp) and reports the flat profile after
// the case's table, JSON rows[].profile, each case's flame graph in --bench-html (row_html) and,
// with --profile-folded=FILE, every case's folded stacks in one file written atomically after
// the last table. Where no sampling event opens, open() refuses with the reason and the run goes
// on without profiles.
// Rationale and details: docs/rationale.md, "engine/tiers/profile/profile_tier.hpp".
#pragma once

#include <memory>

#include "engine/tiers/tier.hpp"

namespace glint::engine {

std::unique_ptr<Tier> make_profile_tier();

}  // namespace glint::engine
