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
    for (const char* key : {"cpuWallRatio", "samplesCpuNs", "cpu", "migrations", "preemptions", "unstable"})
        CHECK(is_stability_member(key));
    CHECK_FALSE(is_stability_member("profile"));
}
