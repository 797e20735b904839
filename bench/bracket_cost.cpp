// bench/bracket_cost.cpp: what one counter bracket costs through each read path, side by side,
// and what that cost does to per-iteration counts of a ~10 ns body, unbatched versus batched.
//
// Rows of "bracket_cost" (per-call cases; the timed call is one empty bracket of that path):
//   bracket/timestamp     a serialised timestamp pair only (rdtsc on x86-64, CNTVCT on arm64):
//                         no counters
//   bracket/<user>        one empty bracket of the arch's user-space path, named after it:
//                         bracket/rdpmc (x86-64: JIT stub over the group's perf pages),
//                         bracket/user-access (arm64: mrs), only where the kernel grants user
//                         reads; elsewhere no row, and the reason is printed on stderr and in
//                         the run header (provenance)
//   bracket/syscall       one empty syscall bracket (ioctl ENABLE + DISABLE + read(2)), then
//   bracket/ioctl-pair    its ENABLE + DISABLE pair alone, and
//   bracket/group-read    its read(2) of the group alone
// Columns, measured once when the cases register, on the group the perf tier would open here
// (the hardware group; the software group when there is no PMU), by glint::BracketCost
// (<glint/bracket_cost.hpp>, whose study each row's figures are):
//   ns/bracket          median time of one whole bracket() call (calibrate_path's clock)
//   ns window           from the first counter read to the last (the user path: its stub or
//                       compiled bracket, without the read(2) of software members); — for the
//                       other rows
//   cyc/bracket         cycles counted by one empty bracket (— without a cycles counter)
//   A/bracket           the anchor counted by one empty bracket: instr (hardware group) or
//                       tc ns (task-clock, software group)
//   A/iter b=1 raw      the tiny body, every iteration bracketed, nothing subtracted: what
//                       unbatched brackets report (the apparatus, not the body)
//   A/iter b=1          the same pass with its interleaved empty brackets subtracted
//   A/iter batched      one bracket around all iterations, empty brackets subtracted
//   x inflation         b=1 raw / batched raw: how much unbatched brackets overstate the body
// A value that was not measured is — (null in JSON), never a number.
//
// "bracket_cost/tiny-body" times the body alone. To see the same effect through the perf tier:
//   glint_bench --bench --filter='bracket_cost/tiny-body' --perf                 (batched)
//   glint_bench --bench --filter='bracket_cost/tiny-body' --perf --perf-batch=1  (every iteration)
//   glint_bench --bench --filter='bracket_cost/tiny-body' --perf --perf-read=compare
#include <glint/bench.hpp>
#include <glint/bracket_cost.hpp>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Path = glint::BracketCost::Path;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::uint64_t kStudyIterations = 20'000;

// About 10 ns: eight dependent multiply-adds.
struct TinyBody {
    std::uint64_t x = 1;
    std::uint64_t operator()() {
        std::uint64_t v = glint::black_box(x);
        for (int i = 0; i < 8; ++i) v = v * 0x9E3779B97F4A7C15ull + 1;
        x = glint::black_box(v);
        return v;
    }
};

// The group, both paths and their studies, shared by the rows (each row owns a reference).
struct Rig {
    glint::BracketCost cost;
    TinyBody body;
    glint::PathStudy syscall_study, user_study;
};

std::shared_ptr<Rig> make_rig() {
    auto rig = std::make_shared<Rig>();
    glint::BracketCost& cost = rig->cost;
    if (!cost.ok()) throw std::runtime_error("perf_event unavailable: " + cost.failure());
    rig->syscall_study = cost.study(Path::syscall, rig->body, kStudyIterations, kStudyIterations);
    if (cost.user_path_available())
        rig->user_study = cost.study(Path::user, rig->body, kStudyIterations, kStudyIterations);
    return rig;
}

// The columns of one row; `s` null: a row without counters (every count column —).
std::vector<glint::Metric> columns(const Rig& rig, const glint::PathStudy* s,
                                   double ns_per_bracket) {
    using M = glint::Metric;
    const std::string& a = rig.cost.anchor();
    auto v = [&](double glint::PathStudy::*field) { return s ? s->*field : kNaN; };
    return {M{"ns/bracket", ns_per_bracket, M::level},
            M{"ns window", v(&glint::PathStudy::window_ns), M::level},
            M{"cyc/bracket", v(&glint::PathStudy::cycles_per_bracket), M::level},
            M{a + "/bracket", v(&glint::PathStudy::anchor_per_bracket), M::level},
            M{a + "/iter b=1 raw", v(&glint::PathStudy::batch1_raw), M::level},
            M{a + "/iter b=1", v(&glint::PathStudy::batch1), M::level},
            M{a + "/iter batched", v(&glint::PathStudy::batched), M::level},
            M{"x inflation", s ? s->inflation() : kNaN, M::level}};
}

// One row whose timed call is one empty bracket of `path`, the pass begun in setup.
void path_row(const std::shared_ptr<Rig>& rig, const std::string& name, Path path,
              const glint::PathStudy& s) {
    glint::bench_case({.name = name,
                       .labels = {{"study", "bracket-cost"}},
                       .metrics = columns(*rig, &s, s.ns_per_bracket),
                       .setup =
                           [rig, path] {
                               if (!rig->cost.begin_pass(path))
                                   throw std::runtime_error("the counting group cannot start");
                           },
                       .teardown = [rig, path] { rig->cost.end_pass(path); }},
                      [rig, path] { return rig->cost.bracket(path); });
}

// A row timing one part of the syscall bracket (no counts of its own: its ns is the median).
template <class Call>
void part_row(const std::shared_ptr<Rig>& rig, const char* name, Call call) {
    glint::bench_case({.name = name,
                       .labels = {{"study", "bracket-cost"}},
                       .metrics = columns(*rig, nullptr, kNaN)},
                      [rig, call] { return call(rig->cost); });
}

}  // namespace

GLINT_BENCH("bracket_cost") {
    const std::shared_ptr<Rig> rig = make_rig();
    if constexpr (glint::BracketCost::has_timestamp()) {
        const double pair_ns = glint::BracketCost::timestamp_pair_ns();
        glint::bench_case({.name = "bracket/timestamp",
                           .labels = {{"study", "bracket-cost"}},
                           .metrics = columns(*rig, nullptr, pair_ns)},
                          [] { return glint::BracketCost::timestamp_pair(); });
    }
    const std::string user_row = "bracket/" + rig->cost.user_path_name();
    if (rig->cost.user_path_available()) {
        path_row(rig, user_row, Path::user, rig->user_study);
    } else {
        const std::string note = "bracket_cost: no " + user_row + " row, " +
                                 rig->cost.user_path_name() +
                                 " is not available here: " + rig->cost.user_path_absent();
        // The reason in full goes to the run header; stderr (every mode, --list too) says
        // only what is missing, in one short line.
        std::fprintf(stderr, "glint: bracket_cost: no %s row (%s is not available here)\n",
                     user_row.c_str(), rig->cost.user_path_name().c_str());
        glint::bench_provenance(note);
    }
    path_row(rig, "bracket/syscall", Path::syscall, rig->syscall_study);
    part_row(rig, "bracket/ioctl-pair", [](glint::BracketCost& c) { return c.ioctl_pair(); });
    part_row(rig, "bracket/group-read", [](glint::BracketCost& c) { return c.group_read(); });
}

GLINT_BENCH("bracket_cost/tiny-body") {
    TinyBody body;
    glint::iter(body);
}
