// The aggregation of one case's samples (engine/profile/profile.hpp): self and inclusive counts,
// recursion, the hottest line, the ±√n uncertainty, folded stacks.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/profile/profile.hpp"

using namespace glint::engine::profile;

namespace {

struct Built {
    Profile p;
    FrameId a, b, c;
    Built() {
        a = p.intern({"a()", "/bin/x", false});
        b = p.intern({"b()", "/bin/x", false});
        c = p.intern({"c()", "/bin/x", true});
    }
};

const FunctionShare* find(const std::vector<FunctionShare>& fs, const std::string& name) {
    for (const auto& f : fs)
        if (f.name.function == name) return &f;
    return nullptr;
}

}  // namespace

TEST_CASE("profile: interning gives one id per function and module") {
    Profile p;
    const FrameId x = p.intern({"f()", "/a", false});
    CHECK(p.intern({"f()", "/a", false}) == x);
    CHECK(p.intern({"f()", "/b", false}) != x);
    CHECK(p.intern({"f()", "/a", true}) != x);
    CHECK(p.name(x).function == "f()");
}

TEST_CASE("profile: self counts the innermost frame, inclusive every frame once per sample") {
    Built t;
    for (int i = 0; i < 30; ++i)
        t.p.add({{t.c, "c.cpp", 7}, {t.b, "b.cpp", 3}, {t.a, "", 0}}, true);
    for (int i = 0; i < 10; ++i) t.p.add({{t.b, "b.cpp", 4}, {t.a, "", 0}}, true);
    // Recursion: a calls b calls a; a is counted once in that sample's inclusive.
    t.p.add({{t.a, "a.cpp", 1}, {t.b, "b.cpp", 3}, {t.a, "a.cpp", 9}}, false);
    CHECK(t.p.samples() == 41);
    CHECK(t.p.complete() == 40);
    const auto fs = t.p.functions();
    REQUIRE(fs.size() == 3);
    CHECK(fs[0].name.function == "c()");  // by self, descending
    CHECK(fs[1].name.function == "b()");
    CHECK(fs[2].name.function == "a()");
    const FunctionShare* c = find(fs, "c()");
    const FunctionShare* b = find(fs, "b()");
    const FunctionShare* a = find(fs, "a()");
    CHECK(c->self == 30);
    CHECK(c->inclusive == 30);
    CHECK(c->name.inlined);
    CHECK(b->self == 10);
    CHECK(b->inclusive == 41);
    CHECK(a->self == 1);
    CHECK(a->inclusive == 41);
    CHECK(c->self_share == doctest::Approx(30.0 / 41));
    CHECK(b->inclusive_share == doctest::Approx(1.0));
    // The line most of a function's self samples fell on (b: line 4, its only self line).
    CHECK(c->line == 7);
    CHECK(c->file == "c.cpp");
    CHECK(b->line == 4);
}

TEST_CASE("profile: the uncertainty of a share of n in N is sqrt(n)/N") {
    CHECK(share_error(0, 100) == 0);
    CHECK(share_error(100, 400) == doctest::Approx(10.0 / 400));
    CHECK(share_error(1500, 2000) == doctest::Approx(std::sqrt(1500.0) / 2000));
    CHECK(share_error(5, 0) == 0);
    Built t;
    for (int i = 0; i < 75; ++i) t.p.add({{t.a, "", 0}}, true);
    for (int i = 0; i < 25; ++i) t.p.add({{t.b, "", 0}}, true);
    const auto fs = t.p.functions();
    CHECK(fs[0].self_error == doctest::Approx(std::sqrt(75.0) / 100));
    CHECK(fs[1].self_error == doctest::Approx(0.05));
}

TEST_CASE("profile: folded stacks, outermost first, summing to the samples") {
    Built t;
    for (int i = 0; i < 3; ++i) t.p.add({{t.c, "", 0}, {t.b, "", 0}, {t.a, "", 0}}, true);
    t.p.add({{t.b, "", 0}, {t.a, "", 0}}, true);
    t.p.add({{t.b, "", 0}}, false);
    const auto folded = t.p.folded("case/x");
    std::uint64_t sum = 0;
    for (const auto& [stack, n] : folded) sum += n;
    CHECK(sum == t.p.samples());
    REQUIRE(folded.size() == 3);
    CHECK(folded[0] == std::pair<std::string, std::uint64_t>{"case/x;[incomplete stack];b()", 1});
    CHECK(folded[1] == std::pair<std::string, std::uint64_t>{"case/x;a();b()", 1});
    CHECK(folded[2] == std::pair<std::string, std::uint64_t>{"case/x;a();b();c()", 3});
    CHECK(t.p.folded("")[1].first == "a();b()");
}

TEST_CASE("profile: folded frames never contain the format's separators") {
    CHECK(folded_frame("f<a;b>\n\x1b\xFF") ==
          "f<a:b>\xE2\x90\x8A\xE2\x90\x9B\xEF\xBF\xBD");  // sanitize::terminal's
    Profile p;
    const FrameId odd = p.intern({"operator;()", "", false});
    p.add({{odd, "", 0}}, true);
    CHECK(p.folded("my;case")[0].first == "my:case;operator:()");
}
