// End to end, a build for an OS glint has no counter back end for (GLINT_OS=other; CI builds one
// in the port/generic-os entry): the timing engine measures, --capabilities answers, and every
// counter asked for is unavailable with its reason: a note on stderr, — in the table, null in
// the JSON, never a 0.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <set>
#include <sstream>
#include <string>

#include "engine/model/json.hpp"
#include "support/process.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::run_process;

TEST_CASE("e2e off Linux: --capabilities answers, nothing is available, each says why") {
    auto r = run_process({fixture_path("basic"), "--capabilities"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    std::istringstream in(r.out);
    std::string line;
    std::set<std::string> seen;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] == ' ')
            continue;  // a wrapped reason's continuation, or its remedy
        std::istringstream words(line);
        std::string name, state, reason;
        words >> name >> state;
        std::getline(words, reason);
        if (name.empty() || name == "remedy:") continue;
        CAPTURE(line);
        CHECK((state == "unavailable" || state == "not-built"));
        CHECK(reason.find_first_not_of(' ') != std::string::npos);  // a reason follows
        seen.insert(name);
    }
    CHECK(seen == std::set<std::string>{"scalar-counting", "overflow-sampling",
                                        "precise-data-source", "symbolization", "event-space",
                                        "numa-topology", "event-naming", "instruction-level",
                                        "thread-coverage", "simulated-cpu"});
    CHECK(contains(glint::test::unwrapped(r.out), "perf_event_open is not available here"));
}

TEST_CASE(
    "e2e off Linux: the timing engine measures while every tier asked for says why it cannot "
    "count") {
    const std::string json = glint::test::temp_json_path("generic_os");
    auto r = run_process({fixture_path("io"), "--bench", "--bench-min-time=0.05",
                          "--filter=write_3", "--perf", "--syscalls=write", "--per-iteration",
                          "--metrics=syscr,raw:r00c0,pfm:INST_RETIRED", "--bench-json=" + json});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    for (const char* tier : {"perf", "raw", "pfm", "tier0", "syscalls", "per-iteration"})
        CHECK(contains(r.err, std::string("glint: note: ") + tier + ": "));
    CHECK(contains(
        glint::test::unwrapped(r.err),
        "pfm:INST_RETIRED: libpfm.so.4 cannot be loaded (libpfm4 and perf_event are Linux-only)"));
    CHECK(contains(r.out, "│ raw:r00c0 │ pfm:INST_RETIRED │ syscr │"));
    CHECK(contains(r.out, "│         — │                — │     — │"));

    const Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    const auto& rows = doc.at("rows").as_array();
    REQUIRE(rows.size() == 1);
    const Json& row = rows[0];
    CHECK(row.at("samples").as_number() == 32);
    CHECK(row.at("samplesNs").as_array().size() == 32);
    CHECK(row.at("medianNs").as_number() > 0);  // timed: one write(2) of 3 bytes per iteration
    for (const auto& sample : row.at("samplesNs").as_array()) CHECK(sample.as_number() > 0);
    for (const char* column : {"raw:r00c0", "pfm:INST_RETIRED", "syscr"}) {
        CAPTURE(column);
        CHECK(row.at("metrics").at(column).is_null());
    }
    CHECK(doc.at("meta").at("tiers").size() == 0);
    const auto& statuses = doc.at("meta").at("statuses").as_array();
    CHECK(statuses.size() == 6);
    for (const auto& s : statuses) {
        CAPTURE(s.at("capability").as_string());
        CHECK(s.at("state").as_string() == "unavailable");
        CHECK_FALSE(s.at("reason").as_string().empty());
    }
    for (const auto& c : doc.at("meta").at("capabilities").as_array())
        CHECK(c.at("state").as_string() != "available");
}
