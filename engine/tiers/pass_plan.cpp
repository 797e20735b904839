#include "engine/tiers/pass_plan.hpp"

#include <algorithm>
#include <cmath>

namespace glint::engine {
namespace {

constexpr std::uint64_t kSplitBrackets = 64;
constexpr double kMinBracketNs = 50e3;

}  // namespace

PassPlan plan_pass(const TimingSummary& timing, const PassSizing& sizing) {
    PassPlan plan;
    const std::uint64_t from_timing =
        timing.per_call ? timing.samples : timing.iterations_per_sample;
    plan.iterations = sizing.iterations
                          ? *sizing.iterations
                          : std::clamp<std::uint64_t>(from_timing, 1, kMaxCountIterations);
    if (timing.per_call) {
        plan.batch = 1;
    } else if (sizing.batch) {
        plan.batch = std::min(*sizing.batch, plan.iterations);
    } else {
        const double per_ms = timing.median_ns > 0 ? kTargetBracketNs / timing.median_ns
                                                   : static_cast<double>(plan.iterations);
        const auto fit = static_cast<std::uint64_t>(std::max(1.0, std::floor(per_ms)));
        // A pass long enough to split: kSplitBrackets brackets of at least kMinBracketNs, so
        // counting/batch_math.hpp can reject the one an interrupt lands in.
        const double least = timing.median_ns > 0 ? std::ceil(kMinBracketNs / timing.median_ns)
                                                  : static_cast<double>(plan.iterations);
        const std::uint64_t split = std::max<std::uint64_t>(
            (plan.iterations + kSplitBrackets - 1) / kSplitBrackets,
            static_cast<std::uint64_t>(std::min(least, static_cast<double>(plan.iterations))));
        plan.batch = std::clamp<std::uint64_t>(std::min(fit, split), 1, plan.iterations);
    }
    return plan;
}

}  // namespace glint::engine
