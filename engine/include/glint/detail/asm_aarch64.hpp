// <glint/detail/asm_aarch64.hpp>: the AArch64 emitter of instruction-level cases (<glint/asm.hpp>
// includes it on AArch64 builds): the case, its chains and the emitted function, whose words
// glint::a64::Assembler encodes (Debian has no xbyak_aarch64) into a buffer mapped writable,
// then read+execute, with the instruction cache cleaned before the first call.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <glint/detail/a64_assembler.hpp>

namespace glint {

// One instruction-level case. The emitted function saves and restores x19..x30 and d8..d15 (the
// callee-saved registers); x16 holds the loop count and sp the stack, so neither may be a chain
// or be written by body or init. Chain registers start at 1 before init runs.
struct AsmCase {
    std::function<void(a64::Assembler&, a64::X)> body;
    unsigned instructions = 1;  // instructions one copy of body emits
    std::vector<a64::X> chains = {a64::x0};
    std::function<void(a64::Assembler&)> init = {};  // once per call, before the loop
    unsigned unroll_short = 50;  // copies per loop trip in the reference function
    unsigned unroll_long = 100;  // ... and in the measured one
};

// Eight chains: enough independent copies to fill every integer pipe of cores to date.
inline const std::vector<a64::X> kIndependentChains = {a64::x0, a64::x1, a64::x2, a64::x3,
                                                       a64::x4, a64::x5, a64::x6, a64::x7};

namespace detail {

// void fn(std::uint64_t trips): init, then `trips` trips of `unroll` copies of the body on every
// chain (subs x16, x16, #1; b.ne), in its own executable mapping, unmapped with the object.
class AsmFunction {
  public:
    using Fn = void (*)(std::uint64_t);
    AsmFunction(const AsmCase& c, unsigned unroll) {
        using namespace a64;
        Assembler a;
        for (unsigned r = 29; r >= 19; r -= 2) a.word(0xA9BF0000 | (r + 1) << 10 | 31 << 5 | r);
        for (unsigned d = 8; d <= 14; d += 2) a.word(0x6DBF0000 | (d + 1) << 10 | 31 << 5 | d);
        a.mov(x16, x0);
        for (const X reg : c.chains) a.movz(reg, 1);
        if (c.init) c.init(a);
        const std::size_t skip = a.size();
        a.nop();                            // cbz x16, done: patched below
        while (a.size() % 4 != 0) a.nop();  // the loop starts on 16 bytes
        const std::size_t loop = a.size();
        for (unsigned u = 0; u < unroll; ++u)
            for (const X reg : c.chains) c.body(a, reg);
        a.word(0xF1000610);                                // subs x16, x16, #1
        a.word(0x54000001 | offset(a.size(), loop) << 5);  // b.ne loop
        a.patch(skip, 0xB4000000 | offset(skip, a.size()) << 5 | 16);
        for (unsigned d = 14; d >= 8; d -= 2) a.word(0x6CC10000 | (d + 1) << 10 | 31 << 5 | d);
        for (unsigned r = 19; r <= 29; r += 2) a.word(0xA8C10000 | (r + 1) << 10 | 31 << 5 | r);
        a.word(0xD65F03C0);  // ret
        map(a.words());
    }
    ~AsmFunction() {
        if (code_) munmap(code_, bytes_);
    }
    AsmFunction(AsmFunction&& other) noexcept
        : fn(std::exchange(other.fn, nullptr)),
          code_(std::exchange(other.code_, nullptr)),
          bytes_(other.bytes_) {}
    AsmFunction(const AsmFunction&) = delete;
    AsmFunction& operator=(const AsmFunction&) = delete;
    AsmFunction& operator=(AsmFunction&&) = delete;

    Fn fn = nullptr;

  private:
    // The 19-bit word offset of a branch at `from` to `to`.
    static std::uint32_t offset(std::size_t from, std::size_t to) {
        return static_cast<std::uint32_t>(static_cast<std::int64_t>(to) -
                                          static_cast<std::int64_t>(from)) &
               0x7FFFF;
    }
    void map(const std::vector<std::uint32_t>& words) {
        const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
        bytes_ = (words.size() * 4 + page - 1) / page * page;
        void* code =
            mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (code == MAP_FAILED)
            throw std::system_error(errno, std::generic_category(), "glint::asm_iter: mmap");
        code_ = code;
        std::memcpy(code, words.data(), words.size() * 4);
        if (mprotect(code, bytes_, PROT_READ | PROT_EXEC) != 0)
            throw std::system_error(errno, std::generic_category(),
                                    "glint::asm_iter: mprotect (read+execute)");
        char* begin = static_cast<char*>(code);
        __builtin___clear_cache(begin, begin + words.size() * 4);
        fn = reinterpret_cast<Fn>(code);
    }

    void* code_ = nullptr;
    std::size_t bytes_ = 0;
};

// Why `reg` cannot be a chain register; empty when it can.
inline std::string reserved_chain(a64::X reg) {
    if (reg.index == 16)
        return "chain register x16 is reserved (it holds the loop count): choose another";
    if (reg.index > 30)
        return "chain register " + reg.name() + " is not a general-purpose register (x0..x30)";
    return {};
}

// One dependent add: 1 core cycle on AArch64 cores to date (the add-cycles unit).
inline AsmCase add_chain_case() {
    return AsmCase{.body = [](a64::Assembler& a, a64::X r) { a.add(r, r, r); }};
}
inline constexpr const char* kAsmClockColumn = "CNTVCT";  // the generic timer's virtual count
inline constexpr const char* kAsmAddName = "add x, x, x";
inline constexpr const char* kAsmCores = "AArch64 cores";

}  // namespace detail
}  // namespace glint
