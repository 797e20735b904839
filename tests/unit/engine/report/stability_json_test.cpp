// A row's stability fields survive the JSON form rows cross a process boundary in (--isolate).
#include <doctest/doctest.h>

#include <cmath>

#include "engine/report/stability_json.hpp"
#include "rows.hpp"

using namespace glint::engine;
using namespace glint::engine::report::testing;

namespace {

Row read_back(const Row& written) {
    Json json = Json::object();
    add_stability_json(json, written);
    Row row = timed_row(written.name, batched(3, 8, 2.0, 0.1, 1.0, 3.0));
    row.timing->cpu_ns = row.timing->wall_ns = NAN;
    read_stability_json(Json::parse(json.dump(-1)), row);
    return row;
}

}  // namespace

TEST_CASE("stability json: an unstable row reads back with its reasons, CPUs and counts") {
    Row moved = timed_row("moved", batched(3, 8, 2.0, 0.1, 1.0, 3.0));
    moved.timing->sample_cpu_ns = {1.0, 0.5, 2.0};
    moved.timing->cpu_ns = 3.0;
    moved.timing->wall_ns = 4.0;
    moved.stability = CaseStability{{0, 1}, 2, 9, {"cpu-time", "migrated"}};
    const Row back = read_back(moved);
    REQUIRE(back.stability);
    CHECK(back.stability->unstable == std::vector<std::string>{"cpu-time", "migrated"});
    CHECK(back.stability->cpus == std::vector<int>{0, 1});
    CHECK(back.stability->migrations == std::optional<std::uint64_t>(2));
    CHECK(back.stability->preemptions == std::optional<std::uint64_t>(9));
    CHECK(back.timing->cpu_wall_ratio() == doctest::Approx(0.75));
    CHECK(back.timing->sample_cpu_ns == std::vector<double>{1.0, 0.5, 2.0});
}

TEST_CASE("stability json: unknown counts stay unknown, a stable row stays stable") {
    Row still = timed_row("still", batched(3, 8, 2.0, 0.1, 1.0, 3.0));
    still.stability = CaseStability{{3}, std::nullopt, std::nullopt, {}};
    const Row back = read_back(still);
    REQUIRE(back.stability);
    CHECK(back.stability->unstable.empty());
    CHECK(back.stability->cpus == std::vector<int>{3});
    CHECK_FALSE(back.stability->migrations);
    CHECK_FALSE(back.stability->preemptions);
    CHECK(std::isnan(back.timing->cpu_wall_ratio()));
    CHECK_FALSE(back.stability->time_lost.wall_ns);  // no timing pass watched: no timeLost
    for (const char* key : {"cpuWallRatio", "samplesCpuNs", "cpu", "migrations", "preemptions",
                            "unstable", "timeLost"})
        CHECK(is_stability_member(key));
    CHECK_FALSE(is_stability_member("profile"));
}

TEST_CASE(
    "stability json: timeLost carries steal and run delay with their shares, or null with why") {
    Row row = timed_row("lost", batched(3, 8, 2.0, 0.1, 1.0, 3.0));
    row.stability = CaseStability{{1}, 0, 0, {"run-delay"}};
    TimeLost& t = row.stability->time_lost;
    t.wall_ns = 2e8;
    t.run_delay_ns = 1e8;
    t.steal_unknown = "/proc/stat does not exist";
    Json json = Json::object();
    add_stability_json(json, row);
    const Json& lost = json.at("timeLost");
    CHECK(lost.at("wallNs").as_number() == 2e8);
    CHECK(lost.at("runDelayNs").as_number() == 1e8);
    CHECK(lost.at("runDelayShare").as_number() == 0.5);
    CHECK(lost.at("stealNs").is_null());
    CHECK(lost.at("stealShare").is_null());
    CHECK(lost.at("stealUnknown").as_string() == "/proc/stat does not exist");
    CHECK(lost.find("runDelayUnknown") == nullptr);
    const Row back = read_back(row);
    REQUIRE(back.stability);
    CHECK(back.stability->time_lost.run_delay_ns == std::optional<double>(1e8));
    CHECK(back.stability->time_lost.steal_unknown == "/proc/stat does not exist");
    t.steal_unknown.clear();
    t.steal_ns = 3e7;
    t.steal_cpu = 1;
    t.steal_tick_ns = 1e7;
    json = Json::object();
    add_stability_json(json, row);
    CHECK(json.at("timeLost").at("stealShare").as_number() == doctest::Approx(0.15));
    CHECK(json.at("timeLost").at("stealCpu").as_number() == 1);
    CHECK(json.at("timeLost").at("stealTickNs").as_number() == 1e7);
    const Row again = read_back(row);
    CHECK(again.stability->time_lost.steal_ns == std::optional<double>(3e7));
    CHECK(again.stability->time_lost.steal_cpu == std::optional<int>(1));
    CHECK(again.stability->time_lost.wall_ns == std::optional<double>(2e8));
}
