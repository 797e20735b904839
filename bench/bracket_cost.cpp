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
// (the hardware group; the software group when there is no PMU), by study_path
// (engine/counting/bracket_study.hpp):
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

#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "arch/arch.hpp"
#include "engine/counting/bracket_study.hpp"
#include "engine/counting/group_opener.hpp"
#include "engine/counting/read_path.hpp"
#include "engine/timing/clock.hpp"

namespace {

namespace counting = glint::engine::counting;
using glint::os::Event;

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

// The group and both paths, shared by the rows (each row owns a reference).
struct Rig {
    counting::OpenedGroup opened;
    std::unique_ptr<counting::ReadPath> syscall;
    std::unique_ptr<counting::ReadPath> user;  // the arch's user-space path, when granted
    std::string user_name;                 // its name: "rdpmc", "user-access"
    std::string user_absent;               // why there is no row for it
    std::size_t anchor = 0;
    std::string anchor_name;  // "instr" or "tc ns"
    TinyBody body;
    counting::BracketingStudy syscall_study, user_study;

    counting::BracketingStudy study(counting::ReadPath& path) {
        return counting::study_path(path, opened.group.spec().events, anchor,
                                {&glint::detail::run_batch<TinyBody>, &body}, kStudyIterations,
                                kStudyIterations);
    }
};

std::shared_ptr<Rig> make_rig() {
    auto rig = std::make_shared<Rig>();
    counting::OpenRequest request;
    request.user_access = true;  // as the tier asks (arm64: the per-event user-access opt-in)
    rig->opened = counting::open_counting_group(request);
    if (!rig->opened.usable())
        throw std::runtime_error("perf_event unavailable: " + rig->opened.statuses.front().reason);
    glint::os::PerfGroup& group = rig->opened.group;
    const std::vector<Event>& members = group.spec().events;
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (members[i] == Event::instructions) rig->anchor = i, rig->anchor_name = "instr";
        if (members[i] == Event::task_clock) rig->anchor = i, rig->anchor_name = "tc ns";
    }
    rig->syscall = counting::make_syscall_path(group);
    counting::UserReadOffer offer = glint::os::offer_user_read_path(group, true);
    rig->user = std::move(offer.path);
    rig->user_name = offer.name;
    if (!rig->user) rig->user_absent = offer.reason;
    rig->syscall_study = rig->study(*rig->syscall);
    if (rig->user) rig->user_study = rig->study(*rig->user);
    return rig;
}

// The columns of one row; `s` null: a row without counters (every count column —).
std::vector<glint::Metric> columns(const Rig& rig, const counting::BracketingStudy* s,
                                   double ns_per_bracket) {
    using M = glint::Metric;
    const std::string& a = rig.anchor_name;
    auto v = [&](double counting::BracketingStudy::*field) { return s ? s->*field : kNaN; };
    return {M{"ns/bracket", ns_per_bracket, M::level},
            M{"ns window", s ? s->cost.window_ns : kNaN, M::level},
            M{"cyc/bracket", s ? s->cost.cycles : kNaN, M::level},
            M{a + "/bracket", v(&counting::BracketingStudy::anchor_per_bracket), M::level},
            M{a + "/iter b=1 raw", v(&counting::BracketingStudy::batch1_raw), M::level},
            M{a + "/iter b=1", v(&counting::BracketingStudy::batch1), M::level},
            M{a + "/iter batched", v(&counting::BracketingStudy::batched), M::level},
            M{"x inflation", s ? s->inflation() : kNaN, M::level}};
}

// One row whose timed call is one empty bracket of `path`, the pass begun in setup.
void path_row(const std::shared_ptr<Rig>& rig, const std::string& name, counting::ReadPath* path,
              const counting::BracketingStudy& s) {
    glint::bench_case(
        {.name = name,
         .labels = {{"study", "bracket-cost"}},
         .metrics = columns(*rig, &s, s.cost.wall_ns),
         .setup = [rig, path] {
             if (!path->begin_pass()) throw std::runtime_error("the counting group cannot start");
         },
         .teardown = [rig, path] { path->end_pass(); }},
        [rig, path] { return path->bracket(counting::empty_body(), 0).ok; });
}

// A row timing one part of the syscall bracket (no counts of its own: its ns is the median).
template <class Call>
void part_row(const std::shared_ptr<Rig>& rig, const char* name, Call call) {
    glint::bench_case({.name = name,
                       .labels = {{"study", "bracket-cost"}},
                       .metrics = columns(*rig, nullptr, kNaN)},
                      [rig, call] { return call(rig->opened.group); });
}

}  // namespace

GLINT_BENCH("bracket_cost") {
    const std::shared_ptr<Rig> rig = make_rig();
    if constexpr (glint::arch::native::kHasTimestamp) {
        const glint::engine::ClockProperties& clock = glint::engine::clock_properties();
        glint::bench_case({.name = "bracket/timestamp",
                           .labels = {{"study", "bracket-cost"}},
                           .metrics = columns(*rig, nullptr,
                                              clock.ticks_usable ? clock.tick_bracket_ns : kNaN)},
                          [] {
                              return glint::arch::native::timestamp_end() -
                                     glint::arch::native::timestamp_begin();
                          });
    }
    const std::string user_row = "bracket/" + rig->user_name;
    if (rig->user) {
        path_row(rig, user_row, rig->user.get(), rig->user_study);
    } else {
        const std::string note = "bracket_cost: no " + user_row + " row, " + rig->user_name +
                                 " is not available here: " + rig->user_absent;
        std::fprintf(stderr, "glint: %s\n", note.c_str());
        glint::bench_provenance(note);
    }
    path_row(rig, "bracket/syscall", rig->syscall.get(), rig->syscall_study);
    part_row(rig, "bracket/ioctl-pair",
             [](glint::os::PerfGroup& g) { return g.enable() && g.disable(); });
    part_row(rig, "bracket/group-read", [](glint::os::PerfGroup& g) {
        glint::os::GroupReading reading;
        return g.read(reading) ? reading.enabled : 0;
    });
}

GLINT_BENCH("bracket_cost/tiny-body") {
    TinyBody body;
    glint::iter(body);
}
