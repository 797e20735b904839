// Callgrind dumps read back (engine/tiers/simulated/callgrind_dump.hpp), on fixed text shaped
// like the dumps Callgrind 3.19 writes with --cache-sim=yes --branch-sim=yes.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "engine/tiers/simulated/callgrind_dump.hpp"

using namespace glint::engine::simulated;

namespace {

const char* const kDump =
    "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 11493\ncmd:  ./t\npart: 1\n"
    "desc: I1 cache: 32768 B, 64 B, 8-way associative\n"
    "desc: Trigger: Client Request: glint #3\n\n"
    "positions: line\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim\n"
    "summary: 6018 3 8 3 0 0 3 1 2 1001 10\ntotals: 6009 2 2 1 0 0 1 0 0 1001 10\n"
    "fl=(1) t.cpp\nfn=(1) body\n3 6009 2 2\n";

const Column& column(const char* name) {
    for (const auto& c : kColumns)
        if (std::string(c.name) == name) return c;
    FAIL("no column " << name);
    return kColumns[0];
}

}  // namespace

TEST_CASE("callgrind dump: events, the summary (trailing zeros left out) and the trigger") {
    std::string why;
    const auto dump = parse_dump(kDump, why);
    REQUIRE(dump);
    CHECK(dump->trigger == "glint #3");
    CHECK(dump->value("Ir") == 6018);
    CHECK(dump->value("Bcm") == 10);
    CHECK(dump->value("Bi") == 0);  // left out of the summary: 0
    CHECK(dump->value("Bim") == 0);
    CHECK(std::isnan(dump->value("Ge")));  // not an event of this dump
    CHECK(column_total(column("sim-instr"), *dump) == 6018);
    CHECK(column_total(column("sim-lld-miss"), *dump) == 3);  // DLmr + DLmw
    CHECK(column_total(column("sim-branch-miss"), *dump) == 10);
}

TEST_CASE("callgrind dump: what is not a dump says why") {
    std::string why;
    CHECK_FALSE(parse_dump("summary: 1 2\n", why));
    CHECK(why.find("events") != std::string::npos);
    CHECK_FALSE(parse_dump("events: Ir\n", why));
    CHECK(why.find("summary") != std::string::npos);
    CHECK_FALSE(parse_dump("events: Ir\nsummary: 1 2\n", why));
    CHECK_FALSE(parse_dump("events: Ir Dr\nsummary: 1 x\n", why));
    CHECK(why.find("'x'") != std::string::npos);
}

TEST_CASE("simulated columns: each marked simulated in its header, four shown by default") {
    std::size_t shown = 0;
    for (const auto& c : kColumns) {
        CHECK(std::string(c.name).rfind("sim-", 0) == 0);
        CHECK(std::string(c.header).rfind("sim:", 0) == 0);
        shown += c.is_default;
    }
    CHECK(shown == 4);
}
