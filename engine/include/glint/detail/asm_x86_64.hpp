// <glint/detail/asm_x86_64.hpp>: the x86-64 emitter of instruction-level cases, through xbyak
// (<glint/asm.hpp> includes it on x86-64 builds; the case, its chains and the emitted function).
#pragma once

#include <xbyak/xbyak.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <glint/detail/arch/arch.hpp>

namespace glint {

// One instruction-level case. The emitted function saves and restores every callee-saved
// register; r15 holds the loop count and rsp the stack, so neither may be a chain or be written
// by body or init. Chain registers start at 1 before init runs.
struct AsmCase {
    std::function<void(Xbyak::CodeGenerator&, const Xbyak::Reg64&)> body;
    unsigned instructions = 1;  // instructions one copy of body emits
    std::vector<Xbyak::Reg64> chains = std::vector<Xbyak::Reg64>(1, Xbyak::util::rax);
    std::function<void(Xbyak::CodeGenerator&)> init = {};  // once per call, before the loop
    unsigned unroll_short = 50;  // copies per loop trip in the reference function
    unsigned unroll_long = 100;  // ... and in the measured one
};

// Eight chains: enough independent copies to fill every integer port of cores to date.
inline const std::vector<Xbyak::Reg64> kIndependentChains = {
    Xbyak::util::rax, Xbyak::util::rbx, Xbyak::util::rcx, Xbyak::util::rdx,
    Xbyak::util::rsi, Xbyak::util::rdi, Xbyak::util::r8,  Xbyak::util::r9};

namespace detail {

// void fn(std::uint64_t trips): init, then `trips` trips of `unroll` copies of the body on every
// chain. The trip count lives in r15 (callee-saved, pushed first). Under the Microsoft x64
// convention the argument is in rcx, and rdi, rsi and xmm6-xmm15 are saved too (a body may use
// any of them); the function calls nothing, so it needs no shadow space of its own.
class AsmFunction : public Xbyak::CodeGenerator {
  public:
    using Fn = void (*)(std::uint64_t);
    static constexpr int kSavedXmm = 10;  // xmm6-xmm15
    AsmFunction(const AsmCase& c, unsigned unroll)
        : Xbyak::CodeGenerator(4096 + std::size_t{unroll} * c.chains.size() * c.instructions * 16) {
        using namespace Xbyak::util;
        constexpr bool win64 = arch::kMicrosoftX64Abi;
        for (const auto& reg : {rbx, rbp, r12, r13, r14, r15}) push(reg);
        if (win64) {
            push(rdi);
            push(rsi);
            sub(rsp, 16 * kSavedXmm);
            for (int i = 0; i < kSavedXmm; ++i) movdqu(ptr[rsp + 16 * i], Xbyak::Xmm(6 + i));
        }
        mov(r15, win64 ? rcx : rdi);
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
        if (win64) {
            for (int i = 0; i < kSavedXmm; ++i) movdqu(Xbyak::Xmm(6 + i), ptr[rsp + 16 * i]);
            add(rsp, 16 * kSavedXmm);
            pop(rsi);
            pop(rdi);
        }
        for (const auto& reg : {r15, r14, r13, r12, rbp, rbx}) pop(reg);
        ret();
        ready();
        fn = getCode<Fn>();
    }
    Fn fn = nullptr;
};

// Why `reg` cannot be a chain register; empty when it can.
inline std::string reserved_chain(const Xbyak::Reg64& reg) {
    if (reg.getIdx() != Xbyak::util::r15.getIdx() && reg.getIdx() != Xbyak::util::rsp.getIdx())
        return {};
    return std::string("chain register ") + reg.toString() +
           " is reserved (r15 holds the loop count, rsp the stack): choose another";
}

// One dependent add: 1 core cycle on every x86-64 core since 2008 (the add-cycles unit).
inline AsmCase add_chain_case() {
    return AsmCase{.body = [](Xbyak::CodeGenerator& g, const Xbyak::Reg64& r) { g.add(r, r); }};
}
inline constexpr const char* kAsmClockColumn = "TSC";  // the timestamp counter's column
inline constexpr const char* kAsmAddName = "add r64, r64";
inline constexpr const char* kAsmCores = "x86-64 cores";

}  // namespace detail
}  // namespace glint
