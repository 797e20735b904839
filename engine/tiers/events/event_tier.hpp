// engine/tiers/events/event_tier.hpp: the raw: and pfm: selector families, one tier each.
//
// Each family counts in its own group and pass (the --perf group is never widened). A tier opens
// when --metrics names one of its selectors: one diagnostic count column per selector, named as
// the selector text, per iteration with the bracket self-cost subtracted. A member the kernel
// refuses is dropped alone (its column "—", its reason on stderr, in the header and JSON meta);
// without libpfm, pfm: columns degrade the same way. Under --perf-inherit the group inherits,
// and a group like it opens on each thread already running (preexisting_threads.hpp).
// Rationale and details: docs/rationale.md, "engine/tiers/events/event_tier.hpp".
#pragma once

#include <memory>

#include "catalog/event_selector.hpp"
#include "engine/tiers/tier.hpp"

namespace glint::engine {

std::unique_ptr<CountingTier> make_event_tier(catalog::EventSelector::Family family);

inline std::unique_ptr<CountingTier> make_raw_event_tier() {
    return make_event_tier(catalog::EventSelector::Family::raw);
}
inline std::unique_ptr<CountingTier> make_pfm_event_tier() {
    return make_event_tier(catalog::EventSelector::Family::pfm);
}

}  // namespace glint::engine
