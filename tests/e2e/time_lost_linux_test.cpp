// End to end: the time a case lost without running (steal, run delay: docs/time-lost.md), in
// rows[].timeLost and meta.stability, and the run-delay mark a pinned competitor earns.
#include <doctest/doctest.h>

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "engine/model/json.hpp"
#include "os/cpu_affinity.hpp"
#include "support/competitor.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::run_process;

namespace {

Json run_json(const std::vector<std::string>& extra, std::string& out) {
    const std::string json = glint::test::temp_json_path("time_lost");
    std::vector<std::string> args = {fixture_path("noise"), "--bench", "--filter=affinity",
                                     "--bench-json=" + json};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_process(args);
    REQUIRE(r.exit_code == 0);
    out = r.out;
    Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    return doc;
}

const Json& only_row(const Json& doc) {
    REQUIRE(doc.at("rows").as_array().size() == 1);
    return doc.at("rows").as_array()[0];
}

bool has(const Json& array, const std::string& s) {
    const auto& a = array.as_array();
    return std::any_of(a.begin(), a.end(), [&](const Json& j) { return j.as_string() == s; });
}

}  // namespace

TEST_CASE("e2e: every measured row says what it lost to steal and run delay, or why it cannot") {
    std::string out;
    const Json doc = run_json({"--bench-min-time=0.05"}, out);
    const Json& stability = doc.at("meta").at("stability");
    CHECK(stability.at("thresholds").at("maxRunDelayShare").as_number() == 0.05);
    CHECK(stability.at("thresholds").at("maxStealShare").as_number() == 0.05);
    CHECK(stability.at("reasons").at("run-delay").as_string() ==
          "waited for the CPU > 5% of wall time");
    CHECK(stability.at("reasons").at("steal").as_string() == "hypervisor stole > 5% of wall time");
    const Json& lost = only_row(doc).at("timeLost");
    CHECK(lost.at("wallNs").as_number() > 0);
    for (const char* field : {"steal", "runDelay"}) {
        const std::string name = field;
        const bool read = stability.at(name + "Read").as_bool();
        INFO(name);
        if (read) {
            CHECK(lost.at(name + "Ns").as_number() >= 0);
            CHECK(lost.at(name + "Share").as_number() >= 0);
        } else {  // unknown: null with the reason, never a 0
            CHECK(lost.at(name + "Ns").is_null());
            CHECK(lost.at(name + "Share").is_null());
            CHECK_FALSE(lost.at(name + "Unknown").as_string().empty());
            CHECK_FALSE(stability.at(name + "Unavailable").as_string().empty());
        }
    }
    if (stability.at("stealRead").as_bool()) CHECK(stability.at("stealTickNs").as_number() > 0);
}

TEST_CASE(
    "e2e: a busy competitor pinned to the measuring CPU shows as run delay and marks the row "
    "run-delay (on a quiet machine)") {
    const auto allowed = glint::os::thread_affinity();
    if (allowed.empty()) return glint::test::skip("this thread's affinity is unknown");
    const unsigned cpu = allowed.back();
    std::string out;
    Json doc;
    {
        glint::test::PinnedCompetitor busy(cpu);
        doc = run_json({"--pin=" + std::to_string(cpu)}, out);
    }
    if (!doc.at("meta").at("stability").at("runDelayRead").as_bool())
        return glint::test::skip(
            "run delay cannot be read here: " +
            doc.at("meta").at("stability").at("runDelayUnavailable").as_string());
    const Json& row = only_row(doc);
    // Sharing the CPU with a spinning process, the thread waits about half of the pass.
    CHECK(row.at("timeLost").at("runDelayShare").as_number() > 0.2);
    CHECK(row.at("timeLost").at("runDelayNs").as_number() > 0);
    CHECK(has(row.at("unstable"), "run-delay"));
    CHECK(contains(glint::test::unwrapped(out),
                   "waited for the CPU > 5% of wall time (run-delay, 1 row)"));
    CHECK(contains(out, "\n~delay "));  // the legend's entry for the row's code, and what helps
    // The run is pinned already: the remedy is to stop the other task, not to pin.
    CHECK(contains(glint::test::unwrapped(out),
                   "(run-delay, 1 row) · another task wanted the pinned CPU: stop it"));
    CHECK_FALSE(contains(glint::test::unwrapped(out), "--pin to a quiet CPU"));
}
