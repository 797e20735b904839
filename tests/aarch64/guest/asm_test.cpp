// Instruction-level cases on AArch64 (<glint/asm.hpp>, glint::a64::Assembler), in the guest:
// the emitted functions run, and under -icount the engine's difference method reads exactly
// 1 instruction per instruction at two unroll pairs, and exactly K per body of K instructions,
// user-only (a timer tick's kernel instructions would land in some passes; the user-space
// count of an emitted body is exact whatever lands in the pass).
//   guest/asm/three        add, eor, add on one chain, declared 3 instructions a copy
//   guest/asm/three-wide   the same body unrolled 20 / 90 copies (another unroll pair)
//   guest/asm/per-body     the same body declared 1 instruction a copy: K = 3 a "copy"
//   guest/asm/chains       add x, x, #1 on the eight independent chains
//   guest/asm/load-use     ldr x0, [x0] through a cell holding its own address
#include <doctest/doctest.h>

#include <glint/asm.hpp>
#include <glint/bench.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "engine_run.hpp"
#include "engine_truth.hpp"
#include "guest_events.hpp"

using glint::a64::Assembler;
using glint::a64::X;

namespace {

void three(Assembler& a, X r) {
    a.add(r, r, r);
    a.eor(r, r, glint::a64::x9);
    a.add(r, r, 1);
}

const void* self_cell = &self_cell;  // a load-use chain's cell: its own address

}  // namespace

GLINT_BENCH("guest/asm/three") { glint::asm_iter({.body = three, .instructions = 3}); }
GLINT_BENCH("guest/asm/three-wide") {
    glint::asm_iter({.body = three, .instructions = 3, .unroll_short = 20, .unroll_long = 90});
}
GLINT_BENCH("guest/asm/per-body") { glint::asm_iter({.body = three, .instructions = 1}); }
GLINT_BENCH("guest/asm/chains") {
    glint::asm_iter(
        {.body = [](Assembler& a, X r) { a.add(r, r, 1); }, .chains = glint::kIndependentChains});
}
GLINT_BENCH("guest/asm/load-use") {
    glint::asm_iter({.body = [](Assembler& a, X r) { a.ldr(r, r); },
                     .init = [](Assembler& a) { a.mov_address(glint::a64::x0, &self_cell); }});
}

namespace {

struct Expected {
    const char* row;
    double instructions;  // per instruction the row declares
};

}  // namespace

TEST_CASE("asm: an emitted function runs and returns, its callee-saved registers kept") {
    glint::AsmCase c{
        .body = three, .instructions = 3, .chains = {glint::a64::x19, glint::a64::x29}};
    glint::detail::AsmFunction fn(c, 10);
    register std::uint64_t kept asm("x19") = 0x1234;
    asm volatile("" : "+r"(kept));
    fn.fn(1000);
    fn.fn(0);  // no trip: init, then straight to the epilogue
    asm volatile("" : "+r"(kept));
    const std::uint64_t after = kept;
    CHECK(after == 0x1234);
}

TEST_CASE(
    "asm: the difference method reads exactly one instruction per instruction, and K per body") {
    glint::guest::ScopedUserAccess access(1);
    glint::guest::ScopedSysctl paranoid("/proc/sys/kernel/perf_event_paranoid", 2);
    const glint::guest::EngineRun run = glint::guest::run_engine(
        {"--bench", "--perf", "--metrics=instr", "--bench-min-time=1", "--filter=guest/asm/*"},
        glint::guest::RunAs::unprivileged);
    INFO("engine output:\n" << run.output);
    REQUIRE(run.failure.empty());
    CHECK(run.status == 0);
    REQUIRE(run.doc.is_object());
    const Expected expected[] = {{"guest/asm/three", 1},
                                 {"guest/asm/three-wide", 1},
                                 {"guest/asm/per-body", 3},
                                 {"guest/asm/chains", 1},
                                 {"guest/asm/load-use", 1}};
    for (const Expected& e : expected) {
        const glint::engine::Json* row = glint::guest::find_row(run.doc, e.row);
        REQUIRE_MESSAGE(row != nullptr, e.row);
        const double instr = glint::guest::metric_of(*row, "instr");
        const glint::engine::Json* median = glint::guest::find_path(*row, {"medianNs"});
        const double ns = median ? glint::guest::number_or_nan(median) : NAN;
        const double ticks = glint::guest::metric_of(*row, "CNTVCT");
        const double add_cycles = glint::guest::metric_of(*row, "add-cycles");
        std::printf(
            "glint-measure: cpu=%s asm %s: instr per instruction %.6f (exact %g), "
            "%.4f ns per instruction (-icount: 1 ns an instruction), CNTVCT %.4f, "
            "add-cycles %.4f\n",
            glint::guest::guest_cpu().c_str(), e.row, instr, e.instructions, ns, ticks, add_cycles);
        CHECK_MESSAGE(
            glint::guest::same_figure(instr, e.instructions),
            e.row << ": " << instr << " instructions per instruction, exact " << e.instructions);
        CHECK_FALSE(glint::guest::estimated(*row, "instr"));
        // -icount shift=0: the virtual clock advances 1 ns an instruction; the median over
        // samples that a timer tick may have lengthened stays near it.
        CHECK_MESSAGE(std::fabs(ns / e.instructions - 1) < 0.10, e.row << ": " << ns << " ns");
        // add-cycles: one dependent add is 1 ns here too, so the column reads the instructions
        // again; present wherever the engine vouches for the timer (it does in this guest).
        if (!std::isnan(add_cycles)) {
            CHECK(std::fabs(add_cycles / e.instructions - 1) < 0.10);
            CHECK(glint::guest::estimated(*row, "add-cycles"));
        }
    }
}

TEST_CASE(
    "asm: --capabilities lists instruction-level cases as available here, with their columns") {
    const glint::guest::EngineRun run =
        glint::guest::run_engine({"--capabilities"}, glint::guest::RunAs::root);
    INFO("engine output:\n" << run.output);
    REQUIRE(run.failure.empty());
    CHECK(run.status == 0);
    const auto at = run.output.find("instruction-level");
    REQUIRE(at != std::string::npos);
    const std::string line = run.output.substr(at, 400);
    CHECK(line.find("available") != std::string::npos);
    CHECK(line.find("glint::a64::Assembler") != std::string::npos);
    CHECK(line.find("CNTVCT") != std::string::npos);
    CHECK(line.find("add-cycles") != std::string::npos);
}
