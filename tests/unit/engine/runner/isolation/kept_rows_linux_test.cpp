// Isolation (engine/runner/isolation/isolated_run.hpp) with a real child: a row the child
// finished reaches the parent's sink as the child sends it, so a child that dies afterwards
// leaves it measured, beside an error row for the case in flight. A parent that held a child's
// rows until the child ended cleanly would lose it (tests/e2e/isolate_kept_rows_linux_test.cpp
// checks the same through the command line).
#include <doctest/doctest.h>

#include <unistd.h>

#include <glint/bench.hpp>

#include <string>
#include <vector>

#include "engine/registry/params.hpp"
#include "engine/runner/isolation/isolated_run.hpp"

using namespace glint::engine;

namespace {

struct Recorded final : CaseSink {
    std::vector<std::string> started, rows, failures;
    std::vector<double> medians;
    void case_started(const std::string& name, const Labels&, const std::string&) override {
        started.push_back(name);
    }
    void row_finished(Row row, const std::string&) override {
        rows.push_back(row.name);
        medians.push_back(row.timing ? row.timing->median_ns : -1);
    }
    void case_failed(const FailedCase& c, const std::string& message) override {
        failures.push_back(c.name + ": " + message);
    }
    void case_deferred(DeferredCase) override {}
    void after_table(std::string) override {}
    void handed_back(const Json&) override {}
};

// One measured iter row, then the process ends mid-body (in the child: the parent's forked copy).
void measured_then_exit() {
    glint::iter([] { return glint::black_box(1) + 1; });
    _exit(3);
}

}  // namespace

TEST_CASE("isolation: a row the child finished is kept when the child then dies") {
    Registration registration;
    registration.name = "kept_then_exit";
    registration.body = &measured_then_exit;
    const CaseRun cases;
    Measuring measuring;
    measuring.min_time_ms = 0.05;
    const TierRequest request;
    Isolation::Settings settings;
    settings.timeout_s = 120;
    Isolation isolation(cases, measuring, request, settings);
    Recorded sink;
    const ParamInstance none;
    const Labels labels;
    isolation.run_body(sink, {}, BodyRun{registration, none, labels});
    INFO("failures: " << (sink.failures.empty() ? "" : sink.failures.front()));
    REQUIRE(sink.rows.size() == 1);
    CHECK(sink.rows[0] == "kept_then_exit");
    CHECK(sink.medians[0] > 0);  // measured, whole
    REQUIRE(sink.failures.size() == 1);
    CHECK(sink.failures[0].find("exit(3) inside the case") != std::string::npos);
}
