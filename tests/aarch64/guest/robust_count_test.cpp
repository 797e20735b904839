// A counting pass that the guest kernel's timer ticks land in, counted kernel+user (the default
// group as root): each tick adds the kernel's instructions to one bracket, and the engine's
// robust combination (engine/counting/batch_math.hpp) rejects those brackets, so the figure is
// the exact one (QEMU's -icount). The same pass in too few brackets keeps the sum, and the
// ticks show in it: the setting is disturbed, and the robust figure is what removes it.
#include <doctest/doctest.h>

#include <glint/bench.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include "engine/counting/read_path.hpp"
#include "engine_cases.hpp"
#include "engine_run.hpp"
#include "engine_truth.hpp"
#include "guest_events.hpp"
#include "os/linux/aarch64/bracket.hpp"

namespace linux_ = glint::os::linux_;
using glint::engine::Json;
using glint::guest::EngineRun;
using glint::guest::RunAs;
using glint::guest::same_figure;

namespace {

// User-space instructions of Adds21's batch function beyond the engine's empty bracket: a
// bracket of n retires a * n + c, so per iteration a + c / n. Brackets long enough for a tick
// to land in would not be exact, so it is solved from short ones (the minimum of a few
// brackets: a tick or a seqlock retry only adds).
struct Line {
    double a = 0, c = 0;
    double per_iteration(std::uint64_t n) const { return a + c / static_cast<double>(n); }
};

Line adds21_line() {
    glint::guest::Truth truth;
    REQUIRE_MESSAGE(truth.group.ok(), truth.group.error());
    truth.group.enable();
    truth.bracket = linux_::select_user_access_bracket(truth.group.layout());
    const auto beyond_empty = [&](std::uint64_t n) {
        return static_cast<double>(truth.beyond_empty<glint::guest::Adds21>(n));
    };
    const double at1000 = beyond_empty(1000);
    const double a = (beyond_empty(2000) - at1000) / 1000;
    const double c = at1000 - 1000 * a;
    truth.group.disable();
    return Line{a, c};
}

std::string text_at(const Json& doc, std::initializer_list<const char*> keys) {
    return glint::guest::text_of(glint::guest::find_path(doc, keys));
}

double number_at(const Json& doc, std::initializer_list<const char*> keys) {
    return glint::guest::number_or_nan(glint::guest::find_path(doc, keys));
}

// 2,000,000 iterations of ~24 instructions: ~48 ms of the guest's virtual time (-icount
// shift=0: one instruction a nanosecond), a dozen timer ticks at the kernel's HZ=250.
constexpr std::uint64_t kIterations = 2'000'000;

}  // namespace

TEST_CASE("engine: kernel+user counts stay exact when timer ticks land in the pass") {
    glint::guest::ScopedUserAccess access(1);
    const std::string cpu = glint::guest::guest_cpu();
    struct Setting {
        std::uint64_t batch;
        bool robust;  // 2000 brackets: combined robustly; 20: fewer than 32, the sum
    };
    const Line line = adds21_line();
    for (const Setting s : {Setting{1000, true}, Setting{100'000, false}}) {
        const double want = line.per_iteration(s.batch);
        const EngineRun run = glint::guest::run_engine(
            {"--bench", "--perf", "--metrics=instr", "--bench-min-time=1",
             "--filter=guest/ticked/adds21", "--perf-iters=" + std::to_string(kIterations),
             "--perf-batch=" + std::to_string(s.batch)},
            RunAs::root);
        INFO("batch " << s.batch << ", engine output:\n" << run.output);
        REQUIRE(run.failure.empty());
        CHECK(run.status == 0);
        REQUIRE(run.doc.is_object());
        CHECK(text_at(run.doc, {"meta", "tiers", "perf", "excludeKernel"}) == "false");
        const Json* row = glint::guest::find_row(run.doc, "guest/ticked/adds21");
        REQUIRE(row != nullptr);
        const double got = glint::guest::metric_of(*row, "instr");
        const Json& spread = *row;
        const std::string combined = text_at(spread, {"countSpread", "perf", "combined"});
        const double rejected = number_at(spread, {"countSpread", "perf", "rejected"});
        const double median =
            number_at(spread, {"countSpread", "perf", "perIteration", "instructions", "median"});
        const double max =
            number_at(spread, {"countSpread", "perf", "perIteration", "instructions", "max"});
        std::printf(
            "glint-measure: cpu=%s engine kernel+user, %llu iterations in brackets of "
            "%llu: adds21 instr/iter=%.6f (exact %.6f), combined %s, rejected %g, "
            "per-bracket median %g max %g\n",
            cpu.c_str(), static_cast<unsigned long long>(kIterations),
            static_cast<unsigned long long>(s.batch), got, want, combined.c_str(), rejected, median,
            max);
        CHECK_FALSE(glint::guest::estimated(*row, "instr"));
        if (s.robust) {
            CHECK(combined == "robust");
            CHECK(rejected >= 1);  // a tick landed in a body bracket, and was rejected
            CHECK(max > median);
            CHECK_MESSAGE(same_figure(got, want), "adds21: engine " << got << ", exact " << want);
            CHECK(same_figure(median, want));
        } else {
            CHECK(combined == "sum");
            CHECK(text_at(spread, {"countSpread", "perf", "reason"}) ==
                  "fewer than 32 full brackets");
            CHECK_FALSE(same_figure(got, want));  // the ticks' kernel instructions, in the sum
        }
    }
}

TEST_CASE("engine: the default plan splits a 100,000-iteration pass and reads it exactly") {
    glint::guest::ScopedUserAccess access(1);
    const Line line = adds21_line();
    constexpr std::uint64_t kDefaultIterations = 100'000;  // the plan's cap: ~2.4 ms here
    const EngineRun run = glint::guest::run_engine(
        {"--bench", "--perf", "--metrics=instr", "--bench-min-time=1",
         "--filter=guest/ticked/adds21", "--perf-iters=" + std::to_string(kDefaultIterations)},
        RunAs::root);
    INFO("engine output:\n" << run.output);
    REQUIRE(run.failure.empty());
    REQUIRE(run.doc.is_object());
    const Json* row = glint::guest::find_row(run.doc, "guest/ticked/adds21");
    REQUIRE(row != nullptr);
    const double got = glint::guest::metric_of(*row, "instr");
    const double brackets = number_at(*row, {"countSpread", "perf", "brackets"});
    const double median =
        number_at(*row, {"countSpread", "perf", "perIteration", "instructions", "median"});
    CHECK(text_at(*row, {"countSpread", "perf", "combined"}) == "robust");
    CHECK(brackets >= 32);
    // Every full bracket of the plan's batch b reads a + c / b exactly; the kept brackets'
    // mean is that figure (a shorter last bracket differs from it, and is rejected).
    bool exact = false;
    for (std::uint64_t b = 1; b <= kDefaultIterations; ++b)
        if (static_cast<double>((kDefaultIterations + b - 1) / b) == brackets &&
            same_figure(median, line.per_iteration(b)))
            exact = true;
    CHECK_MESSAGE(exact, "median " << median << " is no a + c / batch (a " << line.a << ", c "
                                   << line.c << ", " << brackets << " brackets)");
    CHECK(same_figure(got, median));
    std::printf(
        "glint-measure: cpu=%s engine kernel+user, default plan, %llu iterations: adds21 "
        "instr/iter=%.6f in %g brackets (combined %s, rejected %s)\n",
        glint::guest::guest_cpu().c_str(), static_cast<unsigned long long>(kDefaultIterations), got,
        brackets, text_at(*row, {"countSpread", "perf", "combined"}).c_str(),
        text_at(*row, {"countSpread", "perf", "rejected"}).c_str());
}

// A multi-threaded case (docs/threads.md): every thread opens its own group, reads it in user
// space on that thread and counts its own brackets; the row is their sum. Each thread's figure
// is the exact single-thread one, and the row N times it, for N = 1, 2 and 4 (-smp 1: the
// threads share the vCPU, and the switches between them land in brackets the robust
// combination rejects, as the ticks do).
TEST_CASE("engine: a case on N threads counts exactly N times one thread's instructions") {
    glint::guest::ScopedUserAccess access(1);
    const Line line = adds21_line();
    constexpr std::uint64_t kBatch = 1000;
    const double want = line.per_iteration(kBatch);
    const EngineRun run =
        glint::guest::run_engine({"--bench", "--perf", "--metrics=instr", "--bench-min-time=1",
                                  "--filter=guest/threads/adds21", "--perf-iters=200000",
                                  "--perf-batch=" + std::to_string(kBatch)},
                                 RunAs::root);
    INFO("engine output:\n" << run.output);
    REQUIRE(run.failure.empty());
    CHECK(run.status == 0);
    REQUIRE(run.doc.is_object());
    unsigned rows = 0;
    for (const Json& row : run.doc.at("rows").as_array()) {
        const unsigned threads =
            static_cast<unsigned>(std::stoul(text_at(row, {"labels", "threads"})));
        const double got = glint::guest::metric_of(row, "instr");
        std::printf(
            "glint-measure: cpu=%s engine kernel+user, adds21 on %u threads: instr/iter=%.6f "
            "(exact %u x %.6f)\n",
            glint::guest::guest_cpu().c_str(), threads, got, threads, want);
        CHECK_MESSAGE(same_figure(got, threads * want),
                      threads << " threads: " << got << ", exact " << threads * want);
        CHECK_FALSE(glint::guest::estimated(row, "instr"));
        ++rows;
        if (threads == 1) continue;
        CHECK(number_at(row, {"threadCoverage", "counted"}) == threads);
        CHECK(number_at(row, {"threadCoverage", "missed"}) == 0);
        const auto& each = glint::guest::find_path(row, {"threadCounts"})->as_array();
        REQUIRE(each.size() == threads);
        for (const Json& mine : each)
            CHECK(same_figure(glint::guest::number_or_nan(mine.find("instr")), want));
    }
    CHECK(rows == 3);
}
