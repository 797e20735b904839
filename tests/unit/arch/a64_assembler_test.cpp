// glint::a64::Assembler (<glint/detail/a64_assembler.hpp>): every method's word, against what
// GNU as (aarch64-linux-gnu-as -march=armv8-a+crc) assembles from the same instruction, and
// the refusals. The emitted functions themselves run in the arm64 guest
// (tests/aarch64/guest/asm_test.cpp); the encoder is ISA-neutral code, tested on every host.
#include <doctest/doctest.h>

#include <glint/detail/a64_assembler.hpp>

#include <cstdint>
#include <stdexcept>

using namespace glint::a64;

namespace {

std::uint32_t one(void (*emit)(Assembler&)) {
    Assembler a;
    emit(a);
    REQUIRE(a.size() == 1);
    return a.words()[0];
}

}  // namespace

TEST_CASE("a64 assembler: each instruction's word is GNU as's") {
    CHECK(one([](Assembler& a) { a.add(x3, x4, x5); }) == 0x8b050083);  // add x3, x4, x5
    CHECK(one([](Assembler& a) { a.add(x3, x4, 7); }) == 0x91001c83);   // add x3, x4, #7
    CHECK(one([](Assembler& a) { a.sub(x3, x4, x5); }) == 0xcb050083);
    CHECK(one([](Assembler& a) { a.and_(x3, x4, x5); }) == 0x8a050083);
    CHECK(one([](Assembler& a) { a.eor(x3, x4, x5); }) == 0xca050083);
    CHECK(one([](Assembler& a) { a.orr(x3, x4, x5); }) == 0xaa050083);
    CHECK(one([](Assembler& a) { a.mov(x3, x5); }) == 0xaa0503e3);
    CHECK(one([](Assembler& a) { a.madd(x3, x4, x5, x6); }) == 0x9b051883);
    CHECK(one([](Assembler& a) { a.mul(x3, x4, x5); }) == 0x9b057c83);
    CHECK(one([](Assembler& a) { a.udiv(x3, x4, x5); }) == 0x9ac50883);
    CHECK(one([](Assembler& a) { a.sdiv(x3, x4, x5); }) == 0x9ac50c83);
    CHECK(one([](Assembler& a) { a.crc32x(x3, x4, x5); }) == 0x9ac54c83);  // crc32x w3, w4, x5
    CHECK(one([](Assembler& a) { a.ldr(x3, x4, 16); }) == 0xf9400883);     // ldr x3, [x4, #16]
    CHECK(one([](Assembler& a) { a.str(x3, x4, 16); }) == 0xf9000883);
    CHECK(one([](Assembler& a) { a.movz(x3, 1); }) == 0xd2800023);
    CHECK(one([](Assembler& a) { a.movz(x3, 0x1234, 16); }) == 0xd2a24683);
    CHECK(one([](Assembler& a) { a.movk(x3, 0x1234, 16); }) == 0xf2a24683);
    CHECK(one([](Assembler& a) { a.nop(); }) == 0xd503201f);
    CHECK(one([](Assembler& a) { a.word(0xd65f03c0); }) == 0xd65f03c0);  // ret, as a word
}

TEST_CASE("a64 assembler: mov_address loads all 64 bits in four instructions") {
    Assembler a;
    a.mov_address(x9, reinterpret_cast<const void*>(std::uintptr_t{0x1122334455667788}));
    REQUIRE(a.size() == 4);
    CHECK(a.words()[0] == (0xd2800000u | 0x7788u << 5 | 9));             // movz x9, #0x7788
    CHECK(a.words()[1] == (0xf2800000u | 1u << 21 | 0x5566u << 5 | 9));  // movk ..., lsl #16
    CHECK(a.words()[2] == (0xf2800000u | 2u << 21 | 0x3344u << 5 | 9));  // movk ..., lsl #32
    CHECK(a.words()[3] == (0xf2800000u | 3u << 21 | 0x1122u << 5 | 9));  // movk ..., lsl #48
}

TEST_CASE("a64 assembler: what cannot be encoded is refused, naming the rule") {
    Assembler a;
    CHECK_THROWS_WITH_AS(a.add(x1, x2, 4096), doctest::Contains("0..4095"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(a.ldr(x1, x2, 12), doctest::Contains("multiple of 8"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(a.str(x1, x2, 32768), doctest::Contains("below 32768"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(a.movz(x1, 1, 8), doctest::Contains("0, 16, 32 or 48"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(a.add(X{31}, x1, x2), doctest::Contains("x0..x30"), std::invalid_argument);
    CHECK(a.size() == 0);  // nothing refused was emitted
    a.nop();
    a.patch(0, 0xd65f03c0);
    CHECK(a.words()[0] == 0xd65f03c0);
}
