// glint::black_box copies nothing: an lvalue comes back as the same object (Google Benchmark's
// DoNotOptimize takes a reference too), an rvalue is moved out, and a register-sized value
// comes back by value (`x = black_box(x + x)`).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include <glint/bench.hpp>

namespace {

struct Counted {
    static inline int copies = 0;
    static inline int moves = 0;
    int value = 0;
    Counted() = default;
    Counted(const Counted& other) : value(other.value) { ++copies; }
    Counted(Counted&& other) noexcept : value(other.value) { ++moves; }
    Counted& operator=(const Counted&) = default;
    Counted& operator=(Counted&&) = default;
};

int read(const Counted& c) { return c.value; }

}  // namespace

TEST_CASE("black_box: an lvalue is the same object, never a copy") {
    Counted c;
    c.value = 7;
    Counted::copies = Counted::moves = 0;
    CHECK(read(glint::black_box(c)) == 7);
    CHECK(&glint::black_box(c) == &c);
    const Counted& cref = c;
    CHECK(&glint::black_box(cref) == &c);
    CHECK(Counted::copies == 0);
    CHECK(Counted::moves == 0);
    static_assert(std::is_same_v<decltype(glint::black_box(c)), Counted&>);
    static_assert(std::is_same_v<decltype(glint::black_box(cref)), const Counted&>);

    std::string text(100, 'a');  // the case: to_lower(black_box(s)) copied s
    CHECK(glint::black_box(text).data() == text.data());
}

TEST_CASE("black_box: an rvalue is moved out, a register-sized value returned by value") {
    Counted::copies = Counted::moves = 0;
    const Counted moved = glint::black_box(Counted{});
    CHECK(Counted::copies == 0);
    CHECK(Counted::moves == 1);
    CHECK(moved.value == 0);

    std::uint64_t x = 3;
    x = glint::black_box(x + x);
    CHECK(x == 6);
    static_assert(std::is_same_v<decltype(glint::black_box(x)), std::uint64_t>);
    static_assert(std::is_same_v<decltype(glint::black_box<std::uint64_t>(1)), std::uint64_t>);
    CHECK(glint::black_box(2.5) == 2.5);
    const char* p = "abc";
    CHECK(glint::black_box(p) == p);
}
