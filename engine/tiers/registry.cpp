#include "engine/tiers/registry.hpp"

#include "engine/tiers/events/event_tier.hpp"
#include "engine/tiers/per_iteration/per_iteration_tier.hpp"
#include "engine/tiers/perf/perf_tier.hpp"
#include "engine/tiers/profile/profile_tier.hpp"
#include "engine/tiers/simulated/simulated_tier.hpp"
#include "engine/tiers/syscalls/syscall_tier.hpp"
#include "engine/tiers/tier0/tier0_tier.hpp"

namespace glint::engine {

std::vector<std::unique_ptr<Tier>> make_tiers() {
    std::vector<std::unique_ptr<Tier>> tiers;
    tiers.push_back(make_perf_tier());
    tiers.push_back(make_raw_event_tier());
    tiers.push_back(make_pfm_event_tier());
    tiers.push_back(make_tier0_tier());
    tiers.push_back(make_syscall_tier());
    tiers.push_back(make_per_iteration_tier());
    tiers.push_back(make_simulated_tier());
    tiers.push_back(make_profile_tier());  // last: its pass follows every counting pass
    return tiers;
}

}  // namespace glint::engine
