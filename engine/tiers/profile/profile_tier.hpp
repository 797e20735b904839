// engine/tiers/profile/profile_tier.hpp: --profile, a sampled flat profile of every case.
//
// A run extension (engine/tiers/tier.hpp) with a pass of its own: after the case's timing and
// counting passes it runs the sampling pass (engine/profile/sampled_pass.hpp) with the event
// open() chose (engine/profile/sampling_choice.hpp), symbolizes the samples once the pass is
// over (so symbolizing costs the pass nothing) and reports:
//   - after the case's table, its flat profile (engine/profile/case_profile.hpp);
//   - JSON rows[].profile;
//   - with --profile-folded=FILE, every case's folded stacks in one file, the case's name as
//     each stack's root frame, written once after the last table (atomically);
//   - with --bench-html, each case's flame graph under its plot (row_html).
// It adds no columns. Where no sampling event opens, open() refuses with the reason (a stderr
// note; the run goes on without profiles).
#pragma once

#include <memory>

#include "engine/tiers/tier.hpp"

namespace glint::engine {

std::unique_ptr<Tier> make_profile_tier();

}  // namespace glint::engine
