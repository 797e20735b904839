// glint_instructions: the instruction-level table of docs/asm.md (x86-64 only), reproduced by
//   build/bench/glint_instructions --bench --pin=auto --bench-repeat=3
// A latency row is one dependency chain, a throughput row eight independent chains
// (glint::kIndependentChains); every row is per instruction (<glint/asm.hpp>). The latency rows
// of add, imul, crc32, lzcnt and shld are bench/asm_vs_rdtscp.sh's suite.
#include <glint/asm.hpp>
#include <glint/bench.hpp>

#include <stdexcept>
#include <string>

#include <xbyak/xbyak_util.h>

using Xbyak::CodeGenerator;
using Xbyak::Reg64;

namespace {

using Emit = void (*)(CodeGenerator&, const Reg64&);

void latency(Emit body) { glint::asm_iter({.body = body}); }
void throughput(Emit body) { glint::asm_iter({.body = body, .chains = glint::kIndependentChains}); }

void add(CodeGenerator& g, const Reg64& r) { g.add(r, r); }
void imul(CodeGenerator& g, const Reg64& r) { g.imul(r, r); }
void crc32(CodeGenerator& g, const Reg64& r) { g.crc32(r, r); }
void popcnt(CodeGenerator& g, const Reg64& r) { g.popcnt(r, r); }
void lzcnt(CodeGenerator& g, const Reg64& r) { g.lzcnt(r, r); }
void shld(CodeGenerator& g, const Reg64& r) { g.shld(r, r, 1); }

// An error row where the CPU lacks the instruction (lzcnt's encoding would run as bsr).
void require(Xbyak::util::Cpu::Type feature, const char* what) {
    if (!Xbyak::util::Cpu().has(feature))
        throw std::runtime_error(std::string("this CPU has no ") + what + ": row not measured");
}

}  // namespace

GLINT_BENCH("latency/add") { latency(add); }
GLINT_BENCH("latency/imul") { latency(imul); }
GLINT_BENCH("latency/crc32") {
    require(Xbyak::util::Cpu::tSSE42, "SSE4.2 (crc32)");
    latency(crc32);
}
GLINT_BENCH("latency/popcnt") { latency(popcnt); }
GLINT_BENCH("latency/lzcnt") {
    require(Xbyak::util::Cpu::tLZCNT, "LZCNT");
    latency(lzcnt);
}
GLINT_BENCH("latency/shld") { latency(shld); }

// Each load's address is the previous load's value: a pointer to itself below the stack pointer
// (the emitted function is a leaf, so the red zone is its own).
GLINT_BENCH("latency/load-use") {
    glint::asm_iter({.body = [](CodeGenerator& g, const Reg64& r) { g.mov(r, g.ptr[r]); },
                     .init =
                         [](CodeGenerator& g) {
                             g.lea(g.rax, g.ptr[g.rsp - 64]);
                             g.mov(g.ptr[g.rax], g.rax);
                         }});
}

GLINT_BENCH("throughput/add") { throughput(add); }
GLINT_BENCH("throughput/imul") { throughput(imul); }
GLINT_BENCH("throughput/crc32") { throughput(crc32); }
GLINT_BENCH("throughput/popcnt") { throughput(popcnt); }
