// <glint/asm.hpp>: instruction-level cases. A few instructions, emitted unrolled in a JIT buffer
// and timed by the difference method, per instruction. x86-64 (xbyak emits the body):
//   GLINT_BENCH("asm/imul") {
//       glint::asm_iter({.body = [](Xbyak::CodeGenerator& g, const Xbyak::Reg64& r) { g.imul(r, r);
//       }});
//   }
// AArch64 (glint::a64::Assembler encodes it): .body = [](glint::a64::Assembler& a, glint::a64::X r)
// { a.mul(r, r, r); }. body emits one copy on chain register r. One chain (the default, rax /
// x0) is a dependency chain: the row is the latency. Several (.chains = glint::kIndependentChains)
// are independent copies side by side: the reciprocal throughput. Contract, method and measured
// figures: asm.md in glint's documentation. x86-64 needs libxbyak-dev (header-only) where used.
#pragma once

#include <glint/detail/config.hpp>

#if defined(__x86_64__) && defined(GLINT_CONFIG_ARCH_x86_64)
#include <glint/detail/asm_x86_64.hpp>
#elif defined(__aarch64__) && defined(GLINT_CONFIG_ARCH_aarch64)
#include <glint/detail/asm_aarch64.hpp>
#else
#error \
    "<glint/asm.hpp>: instruction-level cases need glint's x86-64 or AArch64 back end; see asm.md in glint's documentation"
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <glint/bench.hpp>
#include <glint/detail/arch/arch.hpp>
#include <glint/detail/timestamp_clock.hpp>

namespace glint {
namespace detail {

inline void check_asm_case(const AsmCase& c) {
    auto refuse = [](const std::string& why) {
        throw std::invalid_argument("glint::asm_iter: " + why);
    };
    if (!c.body) refuse("no body: set AsmCase::body to a function emitting one copy");
    if (c.instructions == 0)
        refuse("instructions is 0: say how many instructions one body copy emits");
    if (c.chains.empty()) refuse("no chain register: give one (latency) or several (throughput)");
    if (c.unroll_short >= c.unroll_long)
        refuse(
            "unroll_short must be below unroll_long: the difference of the two is what is "
            "measured");
    for (const auto& reg : c.chains)
        if (const std::string why = reserved_chain(reg); !why.empty()) refuse(why);
}

// The add-cycles unit: a 100- and a 200-add loop of one dependent add (1 core cycle on the
// cores kAsmCores names), emitted once, timed beside every row (Batch::unit_run).
struct AddUnit {
    static AsmCase chain() {
        AsmCase c = add_chain_case();
        c.unroll_short = 100;
        c.unroll_long = 200;
        return c;
    }
    AsmFunction shorter{chain(), 100}, longer{chain(), 200};
    static constexpr std::uint64_t kSpan = 100;  // adds a call of longer adds to shorter's
};
inline const AddUnit& add_unit() {
    static const AddUnit unit;
    return unit;
}

// Timestamp ticks of one dependent add at start (the header's provenance): the minima over 15
// alternating runs of add_unit's two loops, differenced. 0: not measured.
inline double ticks_per_add() {
    static const double ticks = [] {
        const AsmFunction &shorter = add_unit().shorter, &longer = add_unit().longer;
        constexpr std::uint64_t kTrips = 500;
        auto ticks_of = [](AsmFunction::Fn fn) {
            const std::uint64_t start = arch::native::timestamp_begin();
            fn(kTrips);
            return static_cast<double>(arch::native::timestamp_end() - start);
        };
        double best_short = INFINITY, best_long = INFINITY;
        for (int i = 0; i < 15; ++i) {
            best_short = std::min(best_short, ticks_of(shorter.fn));
            best_long = std::min(best_long, ticks_of(longer.fn));
        }
        return (best_long - best_short) / (static_cast<double>(AddUnit::kSpan) * kTrips);
    }();
    return ticks;
}

// The timestamp (TSC / CNTVCT) and add-cycles columns of an instruction-level row (add-cycles
// an estimate, "≈": the row's time / the add timed beside it, sample by sample), and the run
// header's line on the add at start. None where the timestamp counter is not usable.
inline std::vector<Metric> asm_clock_metrics() {
    const TimestampClock clock = timestamp_clock();
    if (!clock.usable || !(clock.ns_per_tick > 0)) return {};
    const double ticks_per_ns = 1 / clock.ns_per_tick;
    std::vector<Metric> out{Metric{kAsmClockColumn, ticks_per_ns, Metric::clock}};
    const double add = ticks_per_add();
    if (!(add > 0)) return out;
    out.push_back(Metric{"add-cycles", 1, Metric::in_unit, "", true});
    char line[400];
    std::snprintf(line, sizeof line,
                  "asm: add-cycles = time / one dependent %s, timed beside each row's samples "
                  "(at start %.3g %s ticks = %.3g ns, the %s at %.3g GHz): 1 core cycle on %s, "
                  "an estimate, not a cycle counter",
                  kAsmAddName, add, kAsmClockColumn, add * clock.ns_per_tick, kAsmClockColumn,
                  ticks_per_ns, kAsmCores);
    bench_provenance(line);
    return out;
}

}  // namespace detail

// Measures `c` per instruction: the row's time is (time of unroll_long copies − time of
// unroll_short copies) / ((unroll_long − unroll_short) × instructions × chains), so the loop,
// the call and the clock cancel. Options as glint::iter's (glint::iterations pins loop trips).
// Outside --bench the longer function runs one trip. Throws std::invalid_argument on a case
// it cannot emit.
template <class... Options>
void asm_iter(const AsmCase& c, Options... options) {
    detail::check_asm_case(c);
    struct Code {
        detail::AsmFunction shorter, longer;
        const detail::AddUnit& unit;
    } code{detail::AsmFunction(c, c.unroll_short), detail::AsmFunction(c, c.unroll_long),
           detail::add_unit()};
    detail::IterOptions o;
    detail::take_iter_options(o, std::move(options)...);
    for (auto& m : detail::asm_clock_metrics()) o.metrics.push_back(std::move(m));
    detail::Batch batch;
    batch.ctx = &code;
    batch.run = [](void* ctx, std::uint64_t n) { static_cast<Code*>(ctx)->longer.fn(n); };
    batch.reference = [](void* ctx, std::uint64_t n) { static_cast<Code*>(ctx)->shorter.fn(n); };
    batch.span = std::uint64_t{c.unroll_long - c.unroll_short} * c.instructions * c.chains.size();
    batch.unit_run = [](void* ctx, std::uint64_t n) { static_cast<Code*>(ctx)->unit.longer.fn(n); };
    batch.unit_reference = [](void* ctx, std::uint64_t n) {
        static_cast<Code*>(ctx)->unit.shorter.fn(n);
    };
    batch.unit_span = detail::AddUnit::kSpan;
    detail::run_iter(batch, std::move(o));
}

}  // namespace glint
