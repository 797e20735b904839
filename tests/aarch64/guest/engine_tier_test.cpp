// The engine's hardware tier on arm64, end to end: glint::main in a child process over the
// GLINT_BENCH cases of engine_cases.cpp, checked through its --bench-json document and output.
//   - the user-access read path is chosen, and counts a body's instructions exactly (QEMU's
//     -icount), batched and with --perf-batch=1, against an independent count of the same
//     batch function taken here with the step-1 bracket (tests below it in this binary);
//   - --perf-read=compare counts each case through both paths (the @rdpmc and @syscall
//     columns: the user-space path is named rdpmc in column names on every arch) and shows both
//     paths' bracket costs (counts, cycles, CNTVCT times) in the header and meta, with the
//     user-access facts (sysctl, core PMU, counter widths: 64-bit on -cpu max, the 32-bit
//     fallback on neoverse-n1);
//   - more events than counters: the pass is multiplexed and its cells are labelled estimates;
//   - kernel.perf_user_access=0: the syscall path counts, and the run says why and the remedy.
// Unprivileged runs (uid 65534, perf_event_paranoid=2) count user space only: the kernel's own
// instructions (timer ticks inside a bracket) would make counts inexact.
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
using glint::guest::Events;
using glint::guest::number_or_nan;
using glint::guest::OpenOptions;
using glint::guest::RunAs;
using glint::guest::same_figure;
using glint::guest::text_of;
using glint::guest::Truth;

namespace {

constexpr const char* kParanoid = "/proc/sys/kernel/perf_event_paranoid";

double cost_of(const Json& doc, const char* path, const char* event) {
    return number_or_nan(glint::guest::find_path(
        doc, {"meta", "tiers", "perf", "bracketCost", path, "perBracket", event}));
}

// meta.tiers.perf.bracketCost.<path>.<field> (cycles, wallNs, windowNs) as a number.
double cost_field(const Json& doc, const char* path, const char* field) {
    return number_or_nan(
        glint::guest::find_path(doc, {"meta", "tiers", "perf", "bracketCost", path, field}));
}

// meta.tiers.perf.userRead.<field> as text.
std::string user_read(const Json& doc, const char* field) {
    return text_of(glint::guest::find_path(doc, {"meta", "tiers", "perf", "userRead", field}));
}

std::string read_path_of(const Json& doc) {
    return text_of(glint::guest::find_path(doc, {"meta", "tiers", "perf", "readPath"}));
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// "cycles, instructions, page-faults": the group the tier opened.
std::string group_of(const Json& doc) {
    const Json* events = glint::guest::find_path(doc, {"meta", "tiers", "perf", "events"});
    std::string out;
    if (events == nullptr || !events->is_array()) return "?";
    for (const Json& e : events->as_array()) out += (out.empty() ? "" : ", ") + text_of(&e);
    return out;
}

// The run's output on the console, indented, so the rig's log shows what a user sees.
void show(const char* what, const EngineRun& run) {
    std::printf("glint-guest: engine run, %s:\n", what);
    std::size_t start = 0;
    while (start < run.output.size()) {
        std::size_t end = run.output.find('\n', start);
        if (end == std::string::npos) end = run.output.size();
        std::printf("  | %s\n", run.output.substr(start, end - start).c_str());
        start = end + 1;
    }
}

}  // namespace

TEST_CASE(
    "engine: the user-access path counts a body's instructions exactly, batched and "
    "--perf-batch=1") {
    const std::string cpu = glint::guest::guest_cpu();
    glint::guest::ScopedUserAccess access(1);
    glint::guest::ScopedSysctl paranoid(kParanoid, 2);

    Truth truth;
    REQUIRE_MESSAGE(truth.group.ok(), truth.group.error());
    truth.group.enable();
    truth.bracket = linux_::select_user_access_bracket(truth.group.layout());

    // The batched run leaves --perf-read at auto; the unbatched one asks for the user-space
    // path by its alias (--perf-read=user, the same as rdpmc): on arm64 both mean user access.
    struct Setting {
        std::uint64_t batch;
        std::uint64_t iterations;
        const char* read;
    };
    for (const Setting s : {Setting{1000, 100'000, "auto"}, Setting{1, 4'000, "user"}}) {
        const double want5 = truth.per_iteration<glint::guest::Adds5>(s.batch);
        const double want13 = truth.per_iteration<glint::guest::Adds13>(s.batch);
        const EngineRun run = glint::guest::run_engine(
            {"--bench", "--perf", "--bench-min-time=1", "--filter=guest/adds*",
             "--perf-iters=" + std::to_string(s.iterations),
             "--perf-batch=" + std::to_string(s.batch), std::string("--perf-read=") + s.read},
            RunAs::unprivileged);
        INFO("batch " << s.batch << ", engine output:\n" << run.output);
        REQUIRE(run.failure.empty());
        CHECK(run.status == 0);
        REQUIRE(run.doc.is_object());
        CHECK(read_path_of(run.doc) == "user-access");
        const Json* user_only =
            glint::guest::find_path(run.doc, {"meta", "tiers", "perf", "excludeKernel"});
        REQUIRE(user_only != nullptr);
        CHECK(user_only->as_bool());  // unprivileged: user-only, disclosed
        const Json* adds5 = glint::guest::find_row(run.doc, "guest/adds5");
        const Json* adds13 = glint::guest::find_row(run.doc, "guest/adds13");
        REQUIRE(adds5 != nullptr);
        REQUIRE(adds13 != nullptr);
        const double got5 = glint::guest::metric_of(*adds5, "instr");
        const double got13 = glint::guest::metric_of(*adds13, "instr");
        CHECK_MESSAGE(same_figure(got5, want5), "adds5: engine " << got5 << ", expected " << want5);
        CHECK_MESSAGE(same_figure(got13, want13),
                      "adds13: engine " << got13 << ", expected " << want13);
        CHECK(same_figure(got13 - got5, glint::guest::kAdds13 - glint::guest::kAdds5));
        CHECK_FALSE(glint::guest::estimated(*adds5, "instr"));
        std::printf(
            "glint-measure: cpu=%s engine user-access path, user-only, --perf-batch=%llu: "
            "instr/iter adds5=%g (expected %g) adds13=%g (expected %g); bracket "
            "self-cost %g instructions, %g cycles\n",
            cpu.c_str(), static_cast<unsigned long long>(s.batch), got5, want5, got13, want13,
            cost_of(run.doc, "user-access", "instructions"),
            cost_of(run.doc, "user-access", "cycles"));
    }
    truth.group.disable();
}

TEST_CASE("engine: --perf-read=compare shows both paths' bracket costs, header and meta") {
    const std::string cpu = glint::guest::guest_cpu();
    glint::guest::ScopedUserAccess access(1);
    glint::guest::ScopedSysctl paranoid(kParanoid, 2);
    for (const RunAs as : {RunAs::root, RunAs::unprivileged}) {
        const EngineRun run = glint::guest::run_engine(
            {"--bench", "--perf", "--perf-read=compare", "--bench-min-time=1",
             "--filter=guest/adds5", "--perf-iters=100000"},
            as);
        INFO("engine output:\n" << run.output);
        REQUIRE(run.failure.empty());
        CHECK(run.status == 0);
        REQUIRE(run.doc.is_object());
        CHECK(read_path_of(run.doc) == "user-access");
        const double user = cost_of(run.doc, "user-access", "instructions");
        const double syscall = cost_of(run.doc, "syscall", "instructions");
        CHECK(user > 0);
        CHECK(user < 200);
        CHECK(syscall > 2 * user);
        CHECK(has(run.output, "read path user-access"));
        CHECK(has(run.output, "compared with syscall"));
        CHECK(has(run.output, "arm64 user access: kernel.perf_user_access=1"));

        // One bracket's cycles and times, per path: the user path's window (its compiled
        // bracket) inside its whole call, the syscall path's call far longer, and no window.
        const double user_cycles = cost_field(run.doc, "user-access", "cycles");
        CHECK(user_cycles > 0);
        CHECK(user_cycles == cost_of(run.doc, "user-access", "cycles"));
        CHECK(cost_field(run.doc, "syscall", "cycles") > user_cycles);
        const double user_wall = cost_field(run.doc, "user-access", "wallNs");
        const double user_window = cost_field(run.doc, "user-access", "windowNs");
        const double syscall_wall = cost_field(run.doc, "syscall", "wallNs");
        CHECK(user_window > 0);
        CHECK(user_wall >= user_window);
        CHECK(syscall_wall > user_wall);
        const Json* syscall_window = glint::guest::find_path(
            run.doc, {"meta", "tiers", "perf", "bracketCost", "syscall", "windowNs"});
        REQUIRE(syscall_window != nullptr);
        CHECK(syscall_window->is_null());  // not measured: null, never 0
        const std::string clock = text_of(glint::guest::find_path(
            run.doc, {"meta", "tiers", "perf", "bracketCost", "user-access", "clock"}));
        CHECK(clock == text_of(glint::guest::find_path(
                           run.doc, {"meta", "tiers", "perf", "bracketCost", "syscall", "clock"})));

        // The user-access facts: the sysctl, the grant, the counters the pages named.
        CHECK(user_read(run.doc, "path") == "user-access");
        CHECK(user_read(run.doc, "counts") == "true");
        CHECK(user_read(run.doc, "grant") == "requested");
        CHECK(user_read(run.doc, "perfUserAccess") == "1");
        CHECK(has(user_read(run.doc, "pmu"), "armv8_"));
        const Json* counters = glint::guest::find_path(
            run.doc, {"meta", "tiers", "perf", "readPaths", "user-access", "counters"});
        REQUIRE(counters != nullptr);
        REQUIRE(counters->is_array());
        bool saw_instructions = false;
        for (const Json& c : counters->as_array()) {
            CHECK(number_or_nan(glint::guest::find_path(c, {"index"})) > 0);
            if (text_of(glint::guest::find_path(c, {"event"})) != "instructions") continue;
            saw_instructions = true;
            const bool wide = glint::guest::cpu_has_64bit_event_counters();
            CHECK(number_or_nan(glint::guest::find_path(c, {"pmcWidth"})) == (wide ? 64 : 32));
            CHECK(text_of(glint::guest::find_path(c, {"counter64"})) == (wide ? "true" : "false"));
            CHECK(text_of(glint::guest::find_path(c, {"fellBackTo32"})) ==
                  (wide ? "false" : "true"));
        }
        CHECK(saw_instructions);

        // Both paths counted the case: the @rdpmc columns are the user-access pass (the perf
        // columns' own figures), the @syscall ones a second pass through read(2).
        const Json* adds5 = glint::guest::find_row(run.doc, "guest/adds5");
        REQUIRE(adds5 != nullptr);
        const double instr = glint::guest::metric_of(*adds5, "instr");
        const double instr_user = glint::guest::metric_of(*adds5, "instr@rdpmc");
        const double instr_syscall = glint::guest::metric_of(*adds5, "instr@syscall");
        CHECK(std::isfinite(instr));
        CHECK(instr_user == instr);
        CHECK(std::isfinite(instr_syscall));
        const double pass_cycles_user = glint::guest::metric_of(*adds5, "bracket-cycles@rdpmc");
        CHECK(pass_cycles_user > 0);
        CHECK(glint::guest::metric_of(*adds5, "bracket-cycles@syscall") > pass_cycles_user);
        // User-only counts are exact under -icount on either path.
        if (as == RunAs::unprivileged) CHECK(same_figure(instr_syscall, instr));
        if (as == RunAs::root) show("--perf-read=compare, as root", run);
        std::printf(
            "glint-measure: cpu=%s engine bracket self-cost (%s; group %s), "
            "instructions: user-access=%g syscall=%g; cycles: user-access=%g "
            "syscall=%g; %s ns: user-access window %g call %g, syscall call %g; adds5 "
            "instr/iter=%g (@rdpmc %g, @syscall %g)\n",
            cpu.c_str(), as == RunAs::root ? "kernel+user" : "user-only", group_of(run.doc).c_str(),
            user, syscall, user_cycles, cost_field(run.doc, "syscall", "cycles"), clock.c_str(),
            user_window, user_wall, syscall_wall, instr, instr_user, instr_syscall);
    }
}

TEST_CASE("engine: more events than counters makes the pass an estimate, labelled as one") {
    glint::guest::ScopedUserAccess access(1);
    glint::guest::ScopedSysctl paranoid(kParanoid, 2);
    Truth truth;
    REQUIRE_MESSAGE(truth.group.ok(), truth.group.error());
    truth.group.enable();
    truth.bracket = linux_::select_user_access_bracket(truth.group.layout());
    const double per_iteration = truth.per_iteration<glint::guest::Adds5>(100'000);
    truth.group.disable();

    const EngineRun run =
        glint::guest::run_engine({"--bench", "--perf", "--bench-min-time=1",
                                  "--filter=guest/contended/*", "--perf-iters=3000000"},
                                 RunAs::unprivileged);
    INFO("engine output:\n" << run.output);
    REQUIRE(run.failure.empty());
    CHECK(run.status == 0);
    REQUIRE(run.doc.is_object());
    CHECK(read_path_of(run.doc) == "user-access");
    const Json* row = glint::guest::find_row(run.doc, "guest/contended/adds5");
    REQUIRE(row != nullptr);
    CHECK(glint::guest::estimated(*row, "instr"));
    CHECK(glint::guest::estimated(*row, "cycles"));
    CHECK(has(run.output, "≈"));
    const double got = glint::guest::metric_of(*row, "instr");
    show("a competing group open: more events than counters", run);
    // Scaled by the pass's running/enabled: an estimate, near the exact figure.
    CHECK(got == doctest::Approx(per_iteration).epsilon(0.10));
    std::printf(
        "glint-measure: cpu=%s engine, group multiplexed with %u competing counters: "
        "instr/iter adds5 ≈%g (exact %g)\n",
        glint::guest::guest_cpu().c_str(), glint::guest::kCompetingEvents, got, per_iteration);
}

TEST_CASE(
    "engine: perf_user_access=0 counts with the syscall path and says why, with the "
    "remedy") {
    glint::guest::ScopedUserAccess access(0);
    const EngineRun run = glint::guest::run_engine(
        {"--bench", "--perf", "--bench-min-time=1", "--filter=guest/adds5", "--perf-iters=100000"},
        RunAs::root);
    INFO("engine output:\n" << run.output);
    REQUIRE(run.failure.empty());
    CHECK(run.status == 0);
    REQUIRE(run.doc.is_object());
    CHECK(read_path_of(run.doc) == "syscall");
    const Json* disclosures =
        glint::guest::find_path(run.doc, {"meta", "tiers", "perf", "disclosures"});
    REQUIRE(disclosures != nullptr);
    bool disclosed = false;
    for (const Json& d : disclosures->as_array()) {
        if (text_of(glint::guest::find_path(d, {"capability"})) != "perf.read-path") continue;
        disclosed = true;
        CHECK(has(text_of(glint::guest::find_path(d, {"reason"})), "perf_user_access is 0"));
        CHECK(text_of(glint::guest::find_path(d, {"remedy"})) ==
              "sysctl kernel.perf_user_access=1");
    }
    CHECK(disclosed);
    CHECK(user_read(run.doc, "path") == "user-access");
    CHECK(user_read(run.doc, "counts") == "false");
    CHECK(user_read(run.doc, "grant") == "refused");
    CHECK(user_read(run.doc, "perfUserAccess") == "0");
    CHECK(user_read(run.doc, "state") == "unavailable");
    CHECK(has(user_read(run.doc, "reason"), "perf_user_access is 0"));
    CHECK(user_read(run.doc, "remedy") == "sysctl kernel.perf_user_access=1");
    CHECK(has(run.output, "kernel.perf_user_access=1"));  // header lines wrap at spaces
    const Json* row = glint::guest::find_row(run.doc, "guest/adds5");
    REQUIRE(row != nullptr);
    CHECK(std::isfinite(glint::guest::metric_of(*row, "instr")));
    show("kernel.perf_user_access=0", run);
    std::printf(
        "glint-measure: cpu=%s engine, perf_user_access=0: syscall path, bracket "
        "self-cost %g instructions (kernel+user); adds5 instr/iter=%g\n",
        glint::guest::guest_cpu().c_str(), cost_of(run.doc, "syscall", "instructions"),
        glint::guest::metric_of(*row, "instr"));
}
