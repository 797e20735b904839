// engine/tiers/events/event_tier.hpp: the raw: and pfm: selector families, one tier each.
//
// Each family is counted in its own group, in its own pass, so the default --perf columns
// keep their exactness (their group is never widened or multiplexed by these events). A tier
// opens when --metrics names one of its selectors; its family is one diagnostic count column
// per selector, named, headed and serialized as the selector text ("raw:r00c0"), valued per
// iteration with the bracket self-cost subtracted.
//
// A member the kernel refuses (no PMU accepts PERF_TYPE_RAW on a VM, a paranoid kernel, an
// event this PMU lacks) is dropped from the group on its own: its column renders — and its
// reason (errno, and the remedy when there is one) goes to stderr, the header and JSON meta.
// Without libpfm, pfm: columns degrade the same way with the loader's reason.
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
