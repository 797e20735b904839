// <glint/asm.hpp>: instruction-level cases (x86-64, xbyak). A few instructions, emitted unrolled
// in a JIT buffer and timed by the difference method, per instruction:
//   GLINT_BENCH("asm/imul") {
//       glint::asm_iter({.body = [](Xbyak::CodeGenerator& g, const Xbyak::Reg64& r) { g.imul(r, r); }});
//   }
// body(g, r) emits one copy on chain register r. One chain (the default, rax) is a dependency
// chain: the row is the instruction's latency. Several (.chains = glint::kIndependentChains) are
// independent copies side by side: its reciprocal throughput. Contract, method and measured
// figures: asm.md in glint's documentation. Needs libxbyak-dev (header-only) where this header is used.
#pragma once

#include <glint/detail/config.hpp>

#if !defined(__x86_64__) || !defined(GLINT_CONFIG_ARCH_x86_64)
#error "<glint/asm.hpp>: instruction-level cases need glint's x86-64 back end (xbyak); see asm.md in glint's documentation"
#endif

#include <xbyak/xbyak.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <glint/bench.hpp>
#include <glint/detail/arch/arch.hpp>
#include <glint/detail/timestamp_clock.hpp>

namespace glint {

// One instruction-level case. The emitted function saves and restores every callee-saved
// register; r15 holds the loop count and rsp the stack, so neither may be a chain or be written
// by body or init. Chain registers start at 1 before init runs.
struct AsmCase {
    std::function<void(Xbyak::CodeGenerator&, const Xbyak::Reg64&)> body;
    unsigned instructions = 1;  // instructions one copy of body emits
    std::vector<Xbyak::Reg64> chains = {Xbyak::util::rax};
    std::function<void(Xbyak::CodeGenerator&)> init = {};  // once per call, before the loop
    unsigned unroll_short = 50;   // copies per loop trip in the reference function
    unsigned unroll_long = 100;   // ... and in the measured one
};

// Eight chains: enough independent copies to fill every integer port of cores to date.
inline const std::vector<Xbyak::Reg64> kIndependentChains = {
    Xbyak::util::rax, Xbyak::util::rbx, Xbyak::util::rcx, Xbyak::util::rdx,
    Xbyak::util::rsi, Xbyak::util::rdi, Xbyak::util::r8,  Xbyak::util::r9};

namespace detail {

// void fn(std::uint64_t trips): init, then `trips` trips of `unroll` copies of the body on every
// chain. The trip count lives in r15 (callee-saved, pushed first).
class AsmFunction : public Xbyak::CodeGenerator {
public:
    using Fn = void (*)(std::uint64_t);
    AsmFunction(const AsmCase& c, unsigned unroll)
        : Xbyak::CodeGenerator(4096 + std::size_t{unroll} * c.chains.size() * c.instructions * 16) {
        using namespace Xbyak::util;
        for (const auto& reg : {rbx, rbp, r12, r13, r14, r15}) push(reg);
        mov(r15, rdi);
        for (const auto& reg : c.chains) mov(reg, 1);
        if (c.init) c.init(*this);
        Xbyak::Label loop, done;
        test(r15, r15);
        jz(done, T_NEAR);
        align(16);
        L(loop);
        for (unsigned u = 0; u < unroll; ++u)
            for (const auto& reg : c.chains) c.body(*this, reg);
        dec(r15);
        jnz(loop, T_NEAR);
        L(done);
        for (const auto& reg : {r15, r14, r13, r12, rbp, rbx}) pop(reg);
        ret();
        ready();
        fn = getCode<Fn>();
    }
    Fn fn = nullptr;
};

inline void check_asm_case(const AsmCase& c) {
    auto refuse = [](const std::string& why) { throw std::invalid_argument("glint::asm_iter: " + why); };
    if (!c.body) refuse("no body: set AsmCase::body to a function emitting one copy");
    if (c.instructions == 0) refuse("instructions is 0: say how many instructions one body copy emits");
    if (c.chains.empty()) refuse("no chain register: give one (latency) or several (throughput)");
    if (c.unroll_short >= c.unroll_long)
        refuse("unroll_short must be below unroll_long: the difference of the two is what is measured");
    for (const auto& reg : c.chains)
        if (reg.getIdx() == Xbyak::util::r15.getIdx() || reg.getIdx() == Xbyak::util::rsp.getIdx())
            refuse(std::string("chain register ") + reg.toString() +
                   " is reserved (r15 holds the loop count, rsp the stack): choose another");
}

// TSC ticks of one dependent `add r64, r64` (1 core cycle on every x86-64 core since 2008): the
// minima over 15 alternating runs of a 200- and a 100-add loop, differenced. 0: not measured.
inline double ticks_per_add() {
    static const double ticks = [] {
        AsmCase chain{.body = [](Xbyak::CodeGenerator& g, const Xbyak::Reg64& r) { g.add(r, r); },
                      .unroll_short = 100, .unroll_long = 200};
        AsmFunction shorter(chain, chain.unroll_short), longer(chain, chain.unroll_long);
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
        return (best_long - best_short) / (100.0 * kTrips);
    }();
    return ticks;
}

// The TSC and add-cycles columns of an instruction-level row (add-cycles an estimate: "≈"), and
// the run header's line on the calibration. None where the timestamp counter is not usable.
inline std::vector<Metric> asm_clock_metrics() {
    const TimestampClock clock = timestamp_clock();
    if (!clock.usable || !(clock.ns_per_tick > 0)) return {};
    const double ticks_per_ns = 1 / clock.ns_per_tick;
    std::vector<Metric> out{Metric{"TSC", ticks_per_ns, Metric::clock}};
    const double add = ticks_per_add();
    if (!(add > 0)) return out;
    out.push_back(Metric{"add-cycles", ticks_per_ns / add, Metric::clock, "", true});
    char line[256];
    std::snprintf(line, sizeof line,
                  "asm: add-cycles = time / one dependent add r64, r64 (%.3g TSC ticks = %.3g ns, "
                  "the TSC at %.3g GHz): 1 core cycle on x86-64 cores, an estimate, not a cycle counter",
                  add, add * clock.ns_per_tick, ticks_per_ns);
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
    } code{detail::AsmFunction(c, c.unroll_short), detail::AsmFunction(c, c.unroll_long)};
    detail::IterOptions o;
    detail::take_iter_options(o, std::move(options)...);
    for (auto& m : detail::asm_clock_metrics()) o.metrics.push_back(std::move(m));
    detail::Batch batch;
    batch.ctx = &code;
    batch.run = [](void* ctx, std::uint64_t n) { static_cast<Code*>(ctx)->longer.fn(n); };
    batch.reference = [](void* ctx, std::uint64_t n) { static_cast<Code*>(ctx)->shorter.fn(n); };
    batch.span = std::uint64_t{c.unroll_long - c.unroll_short} * c.instructions * c.chains.size();
    detail::run_iter(batch, std::move(o));
}

}  // namespace glint
