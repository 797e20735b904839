// <glint/detail/a64_assembler.hpp>: the A64 instruction words of AArch64 instruction-level
// cases (<glint/asm.hpp>). Debian has no xbyak_aarch64, so glint encodes the few instructions a
// body needs itself, as the Arm ARM spells them, and takes any other instruction as a word.
// Pure encoding: it compiles (and is tested) on every host; only the emitted function needs an
// AArch64 core. Each method appends one instruction; registers are 64-bit (x0..x30).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace glint::a64 {

// A 64-bit general-purpose register. 31 (sp / xzr) is not one: the stack pointer is reserved.
struct X {
    unsigned index = 0;
    constexpr bool operator==(const X&) const = default;
    std::string name() const { return "x" + std::to_string(index); }
};
inline constexpr X x0{0}, x1{1}, x2{2}, x3{3}, x4{4}, x5{5}, x6{6}, x7{7}, x8{8}, x9{9}, x10{10},
    x11{11}, x12{12}, x13{13}, x14{14}, x15{15}, x16{16}, x17{17}, x18{18}, x19{19}, x20{20},
    x21{21}, x22{22}, x23{23}, x24{24}, x25{25}, x26{26}, x27{27}, x28{28}, x29{29}, x30{30};

class Assembler {
  public:
    // Any A64 instruction, encoded by the caller (e.g. from an assembler's listing).
    void word(std::uint32_t instruction) { words_.push_back(instruction); }

    void add(X d, X n, X m) { rrr(0x8B000000, d, n, m); }  // ADD Xd, Xn, Xm
    void add(X d, X n, std::uint32_t imm12) {              // ADD Xd, Xn, #imm12
        if (imm12 > 0xFFF) refuse("add: an immediate is 0..4095");
        word(0x91000000 | imm12 << 10 | reg(n) << 5 | reg(d));
    }
    void sub(X d, X n, X m) { rrr(0xCB000000, d, n, m); }
    void and_(X d, X n, X m) { rrr(0x8A000000, d, n, m); }
    void eor(X d, X n, X m) { rrr(0xCA000000, d, n, m); }
    void orr(X d, X n, X m) { rrr(0xAA000000, d, n, m); }
    void mov(X d, X m) { word(0xAA0003E0 | reg(m) << 16 | reg(d)); }  // ORR Xd, XZR, Xm
    void madd(X d, X n, X m, X a) { rrr(0x9B000000 | reg(a) << 10, d, n, m); }
    void mul(X d, X n, X m) { rrr(0x9B007C00, d, n, m); }  // MADD Xd, Xn, Xm, XZR
    void udiv(X d, X n, X m) { rrr(0x9AC00800, d, n, m); }
    void sdiv(X d, X n, X m) { rrr(0x9AC00C00, d, n, m); }
    // CRC32X Wd, Wn, Xm (FEAT_CRC32): d and n as their 32-bit halves.
    void crc32x(X d, X n, X m) { rrr(0x9AC04C00, d, n, m); }
    // LDR / STR Xt, [Xn, #offset]: offset a multiple of 8 below 32768.
    void ldr(X t, X n, std::uint32_t offset = 0) { memory(0xF9400000, t, n, offset); }
    void str(X t, X n, std::uint32_t offset = 0) { memory(0xF9000000, t, n, offset); }
    // MOVZ Xd, #imm16, LSL #shift (shift 0, 16, 32 or 48).
    void movz(X d, std::uint16_t imm16, unsigned shift = 0) {
        if (shift % 16 != 0 || shift > 48) refuse("movz: a shift is 0, 16, 32 or 48");
        word(0xD2800000 | (shift / 16) << 21 | std::uint32_t{imm16} << 5 | reg(d));
    }
    // MOVK Xd, #imm16, LSL #shift: replaces those 16 bits, keeps the others.
    void movk(X d, std::uint16_t imm16, unsigned shift = 0) {
        if (shift % 16 != 0 || shift > 48) refuse("movk: a shift is 0, 16, 32 or 48");
        word(0xF2800000 | (shift / 16) << 21 | std::uint32_t{imm16} << 5 | reg(d));
    }
    // Xd = address (MOVZ and three MOVK): e.g. a buffer for a load-use chain, set up in init.
    void mov_address(X d, const void* address) {
        const auto bits = reinterpret_cast<std::uintptr_t>(address);
        movz(d, static_cast<std::uint16_t>(bits));
        for (unsigned shift = 16; shift < 64; shift += 16)
            movk(d, static_cast<std::uint16_t>(static_cast<std::uint64_t>(bits) >> shift), shift);
    }
    void nop() { word(0xD503201F); }

    // Replaces instruction `at` (a branch emitted before its target was known).
    void patch(std::size_t at, std::uint32_t instruction) { words_.at(at) = instruction; }
    std::size_t size() const { return words_.size(); }  // in instructions
    const std::vector<std::uint32_t>& words() const { return words_; }

  private:
    [[noreturn]] static void refuse(const std::string& why) {
        throw std::invalid_argument("glint::a64::Assembler: " + why);
    }
    static std::uint32_t reg(X r) {
        if (r.index > 30) refuse("x" + std::to_string(r.index) + " is not a register (x0..x30)");
        return r.index;
    }
    void rrr(std::uint32_t op, X d, X n, X m) { word(op | reg(m) << 16 | reg(n) << 5 | reg(d)); }
    void memory(std::uint32_t op, X t, X n, std::uint32_t offset) {
        if (offset % 8 != 0 || offset >= 32768)
            refuse("ldr/str: an offset is a multiple of 8 below 32768");
        word(op | (offset / 8) << 10 | reg(n) << 5 | reg(t));
    }

    std::vector<std::uint32_t> words_;
};

}  // namespace glint::a64
