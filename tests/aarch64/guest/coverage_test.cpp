// Work a one-thread case starts off its measuring thread, in the guest (docs/threads.md, "threads
// glint did not start"): a thread the body starts and joins, a child process it forks and waits
// for, each running kSpawnedTrips trips of Adds21 (at least 21 user instructions a trip). Counted
// user-only (unprivileged: no kernel instruction of clone or fork in the figure): without
// --perf-inherit that work is not in the row's count and the row says what escaped; with it the
// row counts it, every instruction (at least 21 x kSpawnedTrips more an iteration), never dropped
// silently.
//   guest/escapes/thread   std::thread, joined each iteration
//   guest/escapes/child    fork, the child works and _exits, waitpid each iteration
#include <doctest/doctest.h>

#include <glint/bench.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

#include "engine_cases.hpp"
#include "engine_run.hpp"
#include "engine_truth.hpp"
#include "guest_events.hpp"

namespace {

constexpr unsigned kSpawnedTrips = 10'000;
constexpr double kSpawnedAtLeast = 21.0 * kSpawnedTrips;  // the adds alone

void spawned_work() {
    for (unsigned i = 0; i < kSpawnedTrips; ++i) glint::guest::Adds21{}();
}

}  // namespace

GLINT_BENCH("guest/escapes/thread") {
    glint::iter([] { std::thread(spawned_work).join(); });
}

GLINT_BENCH("guest/escapes/child") {
    glint::iter([] {
        const pid_t child = ::fork();
        if (child == 0) {
            spawned_work();
            ::_exit(0);
        }
        int status = 0;
        if (child > 0) ::waitpid(child, &status, 0);
    });
}

namespace {

struct Counted {
    double instr = NAN;
    const glint::engine::Json* coverage = nullptr;
    glint::guest::EngineRun run;
};

Counted count(const std::string& name, bool inherit) {
    std::vector<std::string> args{"--bench",         "--perf",
                                  "--metrics=instr", "--bench-min-time=1",
                                  "--perf-iters=64", "--filter=" + name};
    if (inherit) args.push_back("--perf-inherit");
    Counted out;
    out.run = glint::guest::run_engine(args, glint::guest::RunAs::unprivileged);
    return out;
}

void check_escapes_then_counted(const std::string& name, const char* escaped_field) {
    glint::guest::ScopedUserAccess access(1);
    glint::guest::ScopedSysctl paranoid("/proc/sys/kernel/perf_event_paranoid", 2);
    double instr[2] = {NAN, NAN};
    for (const bool inherit : {false, true}) {
        const Counted c = count(name, inherit);
        INFO(name << (inherit ? " --perf-inherit" : "") << ", engine output:\n" << c.run.output);
        REQUIRE(c.run.failure.empty());
        CHECK(c.run.status == 0);
        REQUIRE(c.run.doc.is_object());
        const glint::engine::Json* row = glint::guest::find_row(c.run.doc, name);
        REQUIRE(row != nullptr);
        instr[inherit] = glint::guest::metric_of(*row, "instr");
        const glint::engine::Json* coverage = glint::guest::find_path(*row, {"threadCoverage"});
        const glint::engine::Json* escaped =
            glint::guest::find_path(*row, {"threadCoverage", escaped_field});
        const double escaped_ns = glint::guest::number_or_nan(escaped);
        std::printf("glint-measure: cpu=%s %s%s: user instr/iter %.1f, %s %s\n",
                    glint::guest::guest_cpu().c_str(), name.c_str(),
                    inherit ? " --perf-inherit" : "", instr[inherit], escaped_field,
                    escaped ? std::to_string(escaped_ns).c_str() : "(none)");
        if (inherit) {
            CHECK(coverage == nullptr);  // counted: nothing escaped
        } else {
            REQUIRE(coverage != nullptr);  // not counted, and said so
            CHECK(escaped_ns > 0);
        }
    }
    // Without inherit: the measuring thread's own work only (starting and reaping the other).
    CHECK(instr[0] < kSpawnedAtLeast);
    // With it: that work plus every instruction of the thread or child's loop.
    CHECK(instr[1] - instr[0] >= kSpawnedAtLeast);
}

}  // namespace

TEST_CASE(
    "coverage: a thread the body starts escapes a one-thread count, said so, and --perf-inherit "
    "counts its instructions") {
    check_escapes_then_counted("guest/escapes/thread", "otherCpuNs");
}

TEST_CASE(
    "coverage: a child process the body forks escapes a one-thread count, said so, and "
    "--perf-inherit counts its instructions") {
    check_escapes_then_counted("guest/escapes/child", "childCpuNs");
}
