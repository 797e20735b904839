// The legend under the tables: each code the rows show, once, with its meaning and remedy
// (engine/stability/unstable_legend.hpp).
#include <doctest/doctest.h>

#include "../report/rows.hpp"
#include "engine/stability/unstable_legend.hpp"

using namespace glint::engine;
using namespace glint::engine::report::testing;
using Lines = std::vector<std::string>;

namespace {

Row marked(std::string name, std::vector<std::string> reasons) {
    Row row = timed_row(std::move(name), batched(32, 1000, 1.0, 0.01, 0.99, 1.02));
    row.stability = CaseStability{{0}, 0, 0, std::move(reasons)};
    return row;
}

const char* const kHead =
    "~ unstable: each row's reasons as codes (every reason: JSON rows[].unstable)";

}  // namespace

TEST_CASE("legend: none when no row is unstable") {
    Row stable = marked("a", {});
    CHECK(unstable_legend({}).empty());
    CHECK(unstable_legend({stable, error_row("e", "boom")}).empty());
}

TEST_CASE(
    "legend: only the codes the rows show, in the verdict's order, with counts and remedies") {
    const std::vector<Row> rows = {marked("a", {"migrated"}), marked("b", {"cpu-time", "migrated"}),
                                   marked("c", {}), error_row("e", "boom")};
    CHECK(unstable_legend(rows) ==
          Lines{kHead, "~cpu  CPU/wall < 0.9 (cpu-time, 1 row) · try --pin, a quieter machine",
                "~mig  moved between CPUs (migrated, 2 rows) · try --pin"});
}

TEST_CASE("legend: each reason names its own remedy") {
    const Lines lines = unstable_legend(
        {marked("w", {"run-delay"}), marked("s", {"steal"}), marked("t", {"timer-resolution"})});
    CHECK(
        lines ==
        Lines{
            kHead,
            "~delay  waited for the CPU > 5% of wall time (run-delay, 1 row) · try --pin to a "
            "quiet CPU, "
            "or stop the task that wants it",
            "~steal  hypervisor stole > 5% of wall time (steal, 1 row) · try a dedicated or quiet "
            "VM "
            "(another guest shares the host)",
            "~timer  sample < 1000 timer steps (timer-resolution, 1 row) · try more iterations per "
            "sample (glint::iterations)"});
    for (const auto& reason : unstable_reason_codes()) CHECK_FALSE(reason_remedy(reason).empty());
    CHECK(reason_remedy("from-the-future").empty());
}

TEST_CASE("legend: a row with many reasons names each, codes aligned") {
    const Lines lines =
        unstable_legend({marked("a", {"cpu-time", "split", "spread", "migrated", "steal"})});
    REQUIRE(lines.size() == 6);
    CHECK(lines[1].starts_with("~cpu     CPU/wall"));
    CHECK(lines[2].starts_with("~split   samples in two clusters"));
    CHECK(lines[3].starts_with("~spread  MAD > 5% of median (spread, 1 row)"));
    CHECK(lines[4].starts_with("~mig     moved between CPUs"));
    CHECK(lines[5].starts_with("~steal   hypervisor stole"));
}

TEST_CASE("legend: a reason this build does not know is shown by its name, without a remedy") {
    CHECK(unstable_legend({marked("a", {"from-the-future"})}) ==
          Lines{kHead, "~from-the-future  from-the-future (from-the-future, 1 row)"});
}
