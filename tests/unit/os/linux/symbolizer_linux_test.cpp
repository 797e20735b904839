// The symbolizer on this test binary's own code: /proc/self/maps, the ELF symbol table, and
// DWARF through libdw for an inlined helper (this file is compiled with -g:
// tests/CMakeLists.txt). Also the maps parser, ELF loading failures and demangling.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "os/linux/dwarf_lines.hpp"
#include "os/linux/elf_symbols.hpp"
#include "os/linux/proc_maps.hpp"
#include "os/symbols.hpp"

using glint::os::Symbolizer;

namespace glint_symbolizer_test {

[[gnu::noinline]] std::uint64_t symbolized_target(std::uint64_t x) {
    for (int i = 0; i < 10; ++i) {
        x = x * 3 + 1;
        asm volatile("" : "+r"(x));
    }
    return x;
}

// The helper's code stands on one line, so every address inlined from it maps to kHelperLine.
// clang-format off
constexpr std::uint32_t kHelperLine = __LINE__ + 1;
[[gnu::always_inline]] inline std::uint64_t inlined_helper(std::uint64_t x) { x = (x ^ (x >> 29)) * 0x94d049bb133111ebull; asm volatile("" : "+r"(x)); return x; }
// clang-format on

constexpr std::uint32_t kCallLine = __LINE__ + 3;
[[gnu::noinline]] std::uint64_t inlining_caller(std::uint64_t x) {
    for (std::uint64_t i = 0; i < 100; ++i) {
        x = inlined_helper(x) + i;
    }
    return x;
}

}  // namespace glint_symbolizer_test

using namespace glint_symbolizer_test;

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::uint64_t address_of(std::uint64_t (*f)(std::uint64_t)) {
    return reinterpret_cast<std::uint64_t>(f);
}

}  // namespace

TEST_CASE("symbolizer: a function of this binary, by its module, name and start") {
    REQUIRE(symbolized_target(1) != 0);
    Symbolizer symbols;
    const std::uint64_t start = address_of(&symbolized_target);
    for (std::uint64_t at : {start, start + 4}) {
        CAPTURE(at - start);
        const glint::os::Symbolized s = symbols.lookup(at);
        CHECK(ends_with(s.module, "/glint_unit_tests"));
        REQUIRE_FALSE(s.frames.empty());
        CHECK(s.frames.back().function ==
              "glint_symbolizer_test::symbolized_target(unsigned long)");
        CHECK(s.function_start == start);
        CHECK_FALSE(s.frames.back().inlined);
    }
}

TEST_CASE("symbolizer: an inlined helper by its own name and line, inside its caller at the call") {
    REQUIRE(inlining_caller(1) != 0);
    Symbolizer symbols;
    if (!symbols.debug_info_available()) {
        FAIL("libdw.so.1 does not load here: ", symbols.debug_info_how());
        return;
    }
    glint::os::linux_::ElfSymbols elf;
    std::string why;
    REQUIRE(elf.load("/proc/self/exe", why));
    const std::uint64_t start = address_of(&inlining_caller);
    const glint::os::Symbolized first = symbols.lookup(start);
    REQUIRE(first.function_start == start);
    // Some byte of the caller holds the helper's code: find it.
    bool found = false;
    for (std::uint64_t at = start; at < start + 256 && !found; ++at) {
        const glint::os::Symbolized s = symbols.lookup(at);
        if (s.frames.size() < 2 || !s.frames.front().inlined) continue;
        found = true;
        CHECK(s.frames.front().function == "glint_symbolizer_test::inlined_helper(unsigned long)");
        CHECK(s.frames.front().line == kHelperLine);
        CHECK(ends_with(s.frames.front().file, "symbolizer_linux_test.cpp"));
        CHECK(s.frames.back().function == "glint_symbolizer_test::inlining_caller(unsigned long)");
        CHECK_FALSE(s.frames.back().inlined);
        CHECK(s.frames.back().line == kCallLine);
    }
    CHECK(found);
    bool module_has_dwarf = false;
    for (const auto& m : symbols.modules())
        if (ends_with(m.path, "/glint_unit_tests"))
            module_has_dwarf = m.debug_info && m.symbol_table;
    CHECK(module_has_dwarf);
}

TEST_CASE("symbolizer: addresses in no file name nothing") {
    Symbolizer symbols;
    const glint::os::Symbolized none = symbols.lookup(0x10);
    CHECK(none.module.empty());
    CHECK(none.frames.empty());
    void* heap = std::malloc(64);
    const glint::os::Symbolized anon = symbols.lookup(reinterpret_cast<std::uint64_t>(heap));
    std::free(heap);
    CHECK(anon.frames.empty());
    CHECK(anon.function_start == 0);
}

TEST_CASE("proc maps: ranges, offsets, permissions and paths, with or without a path") {
    const auto maps = glint::os::linux_::parse_maps(
        "55d0c0000000-55d0c0021000 r--p 00000000 08:01 1234    /usr/bin/prog\n"
        "55d0c0021000-55d0c0100000 r-xp 00021000 08:01 1234    /usr/bin/my prog\n"
        "7ffd1000-7ffd3000 rw-p 00000000 00:00 0 \n"
        "garbage line\n"
        "7fff0000-7fff2000 r-xp 00000000 00:00 0                  [vdso]");
    REQUIRE(maps.size() == 4);
    CHECK(maps[0].start == 0x55d0c0000000);
    CHECK(maps[0].end == 0x55d0c0021000);
    CHECK_FALSE(maps[0].executable);
    CHECK(maps[1].executable);
    CHECK(maps[1].file_offset == 0x21000);
    CHECK(maps[1].path == "/usr/bin/my prog");
    CHECK(maps[2].path.empty());
    CHECK(maps[3].path == "[vdso]");
}

TEST_CASE("elf symbols: a file that is not ELF says so") {
    glint::os::linux_::ElfSymbols elf;
    std::string why;
    CHECK_FALSE(elf.load("/proc/self/maps", why));
    CHECK(why == "not an ELF file");
    CHECK_FALSE(elf.load("/nonexistent/glint", why));
    CHECK(why.find("cannot open") == 0);
}

TEST_CASE("demangle: C++ names demangled, C names and junk kept") {
    using glint::os::linux_::demangle;
    CHECK(demangle("_ZN5glint4mainEiPPc") == "glint::main(int, char**)");
    CHECK(demangle("main") == "main");
    CHECK(demangle("_Znot_a_mangled_name") == "_Znot_a_mangled_name");
}
