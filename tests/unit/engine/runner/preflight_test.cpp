// Checks before measuring: close names (engine/runner/preflight.hpp).
#include <doctest/doctest.h>

#include "engine/runner/preflight.hpp"

using namespace glint::engine;

TEST_CASE("preflight: the closest names come first, ties in the given order, duplicates once") {
    const std::vector<std::string> names = {"whole_body", "add_chain", "matrix/fill", "add_chain",
                                            "add_chains"};
    CHECK(closest_names("adx_chain", names, 2) ==
          std::vector<std::string>{"add_chain", "add_chains"});
    CHECK(closest_names("x", names, 10).size() == 4);
    CHECK(closest_names("x", {}, 3).empty());
}

namespace {

// A catalog of one shown default column, one measured column shown only on request, and one
// the run cannot measure.
std::vector<glint::catalog::MetricDescriptor> sort_catalog() {
    using glint::catalog::MetricDescriptor;
    MetricDescriptor clock{"task-clock", "task-clock/iter"}, chars{"rchar", "rchar"},
        ipc{"ipc", "ipc"};
    clock.available = clock.is_default = true;
    chars.available = true;
    ipc.reason = "no hardware PMU";
    return {ipc, clock, chars};
}

TableLayout sort_by(std::string column, bool descending = false) {
    TableLayout t;
    t.sort_by = std::move(column);
    t.sort_descending = descending;
    return t;
}

}  // namespace

TEST_CASE("preflight: --sort-by names only the run's columns, and the fix") {
    const auto catalog = sort_catalog();
    for (const char* column : {"name", "n", "median", "mad", "min", "max", "task-clock"})
        CHECK_FALSE(sort_column_problem(sort_by(column), catalog, {}));
    // No close column: the run's columns, and never one it does not have (ipc, rchar).
    CHECK(sort_column_problem(sort_by("speed"), catalog, {}) ==
          "--sort-by: 'speed' is not a column of this run (this run's columns: name, n, median, "
          "mad, min, "
          "max, task-clock)");
    // A typo: the flag as it would read, the descending sign kept.
    CHECK(sort_column_problem(sort_by("medain", true), catalog, {}) ==
          "--sort-by: 'medain' is not a column of this run; did you mean --sort-by=-median? (this "
          "run's "
          "columns: name, n, median, mad, min, max, task-clock)");
    // A metric of the catalog: why it is not measured, or how to show it.
    CHECK(sort_column_problem(sort_by("ipc"), catalog, {}) ==
          "--sort-by: 'ipc' is not measured in this run: no hardware PMU; this run's columns: "
          "name, n, median, "
          "mad, min, max, task-clock");
    CHECK(sort_column_problem(sort_by("rchar"), catalog, {}) ==
          "--sort-by: 'rchar' is measured but not shown: --metrics=task-clock,rchar shows it "
          "beside this "
          "run's columns");
    // --metrics decides what is shown.
    CHECK_FALSE(sort_column_problem(sort_by("rchar"), catalog, {"rchar"}));
    CHECK(sort_column_problem(sort_by("task-clock"), catalog, {"rchar"}) ==
          "--sort-by: 'task-clock' is measured but not shown: --metrics=rchar,task-clock shows it "
          "beside this "
          "run's columns");
}
