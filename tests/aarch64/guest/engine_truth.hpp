// tests/aarch64/guest/engine_truth.hpp: what the engine should report, counted beside it, and
// how its JSON figures are compared. Truth counts user-space instructions a bracket around
// batch(context, n) retires beyond a bracket around the engine's empty body with n = 0: what
// the engine reports for a bracket of n iterations once it has subtracted its empty brackets.
// The minimum of a few brackets (a tick or a seqlock retry only adds). Open, enable and set
// `bracket` before use.
#pragma once

#include <glint/bench.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "engine/counting/read_path.hpp"
#include "engine/model/json.hpp"
#include "guest_events.hpp"
#include "os/linux/aarch64/bracket.hpp"

namespace glint::guest {

struct Truth {
    Events group{{{os::linux_::kArmv8CpuCycles}, {os::linux_::kArmv8InstRetired}},
                 OpenOptions{.want_64bit = true}};
    os::linux_::Arm64BracketFn bracket = nullptr;

    std::int64_t instructions(os::linux_::Arm64BatchFn batch, void* context, std::uint64_t n) {
        std::int64_t best = std::numeric_limits<std::int64_t>::max();
        for (int r = 0; r < 7; ++r) {
            std::int64_t deltas[os::linux_::Arm64GroupPages::kMaxSlots] = {};
            bracket({group.bracket_pages(), batch, context, n, deltas});
            best = std::min(best, deltas[1]);
        }
        return best;
    }
    // A bracket of n iterations of Body, beyond the empty bracket.
    template <class Body>
    std::int64_t beyond_empty(std::uint64_t n) {
        Body body;
        const os::Body empty = engine::counting::empty_body();
        return instructions(&glint::detail::run_batch<Body>, &body, n) -
               instructions(empty.run, empty.ctx, 0);
    }
    // Per iteration, for brackets of n iterations.
    template <class Body>
    double per_iteration(std::uint64_t n) {
        return static_cast<double>(beyond_empty<Body>(n)) / static_cast<double>(n);
    }
};

// The engine's JSON prints 6 significant digits.
inline bool same_figure(double engine, double expected) {
    return std::fabs(engine - expected) <= 1e-5 * std::max(1.0, std::fabs(expected));
}

inline std::string text_of(const engine::Json* v) {
    if (v == nullptr) return "(absent)";
    if (v->is_string()) return v->as_string();
    return v->dump(0);
}

inline double number_or_nan(const engine::Json* v) {
    return v != nullptr && v->is_number() ? v->as_number()
                                          : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace glint::guest
