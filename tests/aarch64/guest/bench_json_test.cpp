// The bench program ran in this guest before the tests (tests/aarch64/rig.sh lists both in the
// guest's /etc/glint/programs) and wrote its
// --bench-json document: the engine's pipeline runs on arm64 unchanged.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/model/json.hpp"

using glint::engine::Json;

namespace {

const Json* member(const Json& object, const std::string& key) {
    if (!object.is_object()) return nullptr;
    for (const auto& [name, value] : object.as_object()) {
        if (name == key) return &value;
    }
    return nullptr;
}

}  // namespace

TEST_CASE("the bench binary ran in the guest and its JSON describes an arm64 run") {
    const char* path = std::getenv("GLINT_BENCH_JSON");
    REQUIRE_MESSAGE(path != nullptr, "run by the rig's /init, which sets GLINT_BENCH_JSON");
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), "the bench program wrote no " << path);
    std::stringstream text;
    text << in.rdbuf();
    const Json doc = Json::parse(text.str());
    REQUIRE(doc.is_object());
    const Json* schema = member(doc, "schema");
    REQUIRE(schema != nullptr);
    CHECK(schema->as_number() == 2);
    const Json* meta = member(doc, "meta");
    REQUIRE(meta != nullptr);
    const Json* arch = member(*meta, "arch");
    REQUIRE(arch != nullptr);
    CHECK(arch->as_string() == "aarch64");
    const Json* rows = member(doc, "rows");
    REQUIRE(rows != nullptr);
    REQUIRE(rows->as_array().size() == 1);
    const Json& row = rows->as_array()[0];
    CHECK(member(row, "name")->as_string() == "add_chain");
    const Json* median = member(row, "medianNs");
    REQUIRE(median != nullptr);
    REQUIRE(median->is_number());
    CHECK(std::isfinite(median->as_number()));
    CHECK(median->as_number() > 0);

    // --perf --perf-read=compare: counted through user access and through syscall, both paths'
    // costs measured.
    const Json* tiers = member(*meta, "tiers");
    REQUIRE(tiers != nullptr);
    const Json* perf = member(*tiers, "perf");
    REQUIRE(perf != nullptr);
    const Json* read_path = member(*perf, "readPath");
    REQUIRE(read_path != nullptr);
    CHECK(read_path->as_string() == "user-access");
    const Json* costs = member(*perf, "bracketCost");
    REQUIRE(costs != nullptr);
    for (const char* name : {"user-access", "syscall"}) {
        CAPTURE(name);
        const Json* cost = member(*costs, name);
        REQUIRE(cost != nullptr);
        const Json* per = member(*cost, "perBracket");
        REQUIRE(per != nullptr);
        const Json* instructions = member(*per, "instructions");
        REQUIRE(instructions != nullptr);
        REQUIRE(instructions->is_number());
        CHECK(instructions->as_number() > 0);
        // One bracket's cycles and the time of one whole bracket() call, both paths.
        for (const char* field : {"cycles", "wallNs"}) {
            CAPTURE(field);
            const Json* v = member(*cost, field);
            REQUIRE(v != nullptr);
            REQUIRE(v->is_number());
            CHECK(v->as_number() > 0);
        }
        // Its counting window (first counter read to last): timed on the user path only.
        const Json* window = member(*cost, "windowNs");
        REQUIRE(window != nullptr);
        if (std::string(name) == "user-access") {
            REQUIRE(window->is_number());
            CHECK(window->as_number() > 0);
        } else {
            CHECK(window->is_null());
        }
    }
    const Json* compare = member(*perf, "compare");
    REQUIRE(compare != nullptr);
    CHECK(compare->as_bool());
    const Json* metrics = member(row, "metrics");
    REQUIRE(metrics != nullptr);
    const Json* instr = member(*metrics, "instr");
    REQUIRE(instr != nullptr);
    REQUIRE(instr->is_number());
    CHECK(instr->as_number() > 0);
    // Compare mode counted the case through both paths; the user path's columns are named
    // @rdpmc on every arch, so the JSON keys match across hosts.
    for (const char* column : {"instr@rdpmc", "instr@syscall"}) {
        CAPTURE(column);
        const Json* v = member(*metrics, column);
        REQUIRE(v != nullptr);
        REQUIRE(v->is_number());
        CHECK(v->as_number() > 0);
    }
    CHECK(member(*metrics, "instr@rdpmc")->as_number() == instr->as_number());
}
