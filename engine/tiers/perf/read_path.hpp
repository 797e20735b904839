// engine/tiers/perf/read_path.hpp: how the hardware tier reads its group around a body.
//
// A read path owns the mechanics of one bracket: make the group count, run the body n times,
// stop, and report what the group counted in between (count and time deltas). The tier drives
// a pass as begin_pass() (once: reset and baseline), then bracket() per batch, then end_pass().
// Paths are interchangeable: "syscall" (ioctl ENABLE/DISABLE + one read(2) of the group,
// always possible) and the arch's user-space path (reads of the mmap pages, no system call
// inside the counting window), offered by offer_user_read_path below, one implementation per
// arch: x86-64 "rdpmc" (JIT stubs, engine/tiers/perf/x86_64/), AArch64 "user-access" (mrs,
// engine/tiers/perf/aarch64/), none elsewhere (generic/); select_read_path chooses.
//
// Contracts of every path:
//  - bracket() returns what the group counted during that bracket (counts and times), so
//    time fields never include time before the pass (RESET does not zero them).
//  - Nothing of the apparatus outside the bracket is counted: the untimed `after` of a
//    per-call case runs between brackets, in no delta (the syscall path stops the group
//    between brackets; a user-space path keeps the group counting for the whole pass and
//    differences its reads at the bracket's two ends, so what runs between brackets falls
//    outside every window).
//  - A failed read/ioctl gives a delta with ok == false; the pass then renders nan. The body
//    still runs its n iterations: a per-call case's after() releases what timed() produced.
//  - If the body throws, the group stops counting before the exception leaves bracket().
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <glint/bench.hpp>

#include "engine/tiers/request.hpp"
#include "engine/model/json.hpp"
#include "engine/model/status.hpp"
#include "engine/tiers/perf/pass_math.hpp"
#include "os/perf_events.hpp"

namespace glint::engine::perf {

// A body to bracket: body.run(body.ctx, n) runs n iterations (a case's compiled batch).
using Body = glint::detail::Batch;

class ReadPath {
public:
    virtual ~ReadPath() = default;
    // "syscall", "rdpmc" (x86-64), "user-access" (AArch64): meta.readPath, bracketCost keys.
    virtual std::string_view name() const = 0;
    virtual std::string describe() const = 0;  // one line for the header
    // Starts a pass: zero the counters, take the baseline. false when the group cannot be
    // reset or read (the pass then renders nan).
    virtual bool begin_pass() = 0;
    virtual GroupDelta bracket(Body body, std::uint64_t n) = 0;
    virtual void end_pass() {}
    // Timestamp-counter ticks of the last bracket's counting window, from before its first
    // counter read to after its last, when the path can time that apart from its system calls
    // (rdpmc: the JIT stub call; user-access: the compiled bracket; neither with the read(2) of
    // software members); nan otherwise.
    virtual double last_window_ticks() const { return std::numeric_limits<double>::quiet_NaN(); }
    // Path-specific facts for JSON meta (layout, retries, slow reads); {} by default.
    virtual Json meta() const { return Json::object(); }
};

// The syscall path over an open group (which must outlive it).
std::unique_ptr<ReadPath> make_syscall_path(os::PerfGroup& group);

// An empty body (n iterations of nothing): what calibration brackets.
Body empty_body();

// The bracket's own cost at open, per path, for the header and meta: the per-member median of
// `brackets` empty-body brackets (n = 0) in one pass, the cycles one bracket costs, and its
// time. Values not measured are nan. (Passes subtract their own interleaved empty brackets:
// see pass_runner.hpp.)
inline constexpr std::size_t kCalibrationBrackets = 31;
struct PathCost {
    BracketCost counts;        // per member: median of the empty brackets
    double cycles = std::numeric_limits<double>::quiet_NaN();     // nan: no cycles member
    double wall_ns = std::numeric_limits<double>::quiet_NaN();    // one whole bracket() call
    double window_ns = std::numeric_limits<double>::quiet_NaN();  // first to last counter read
    std::string clock;  // what timed wall_ns and window_ns: the tick counter's name, or
                        // "steady_clock" where it is not usable
};
PathCost calibrate_path(ReadPath& path, const std::vector<os::Event>& members,
                        std::size_t brackets = kCalibrationBrackets);

// ---- the user-space read path, per arch --------------------------------------------------------

// The --perf-read name of the user-space path ("rdpmc", alias "user") on every arch: x86-64
// rdpmc, arm64 mrs user access. Compare-mode column names use it (instr@rdpmc, ...), so JSON
// keys match on every host; the path itself keeps its own name (ReadPath::name()).
inline constexpr std::string_view kUserPathName = "rdpmc";

// What the arch's user-space path made of a group: a path, or why not, plus facts to disclose.
struct UserReadOffer {
    std::unique_ptr<ReadPath> path;  // null: not offered
    // The path's name, offered or not ("rdpmc", "user-access"): disclosures, meta.userRead.
    std::string name{kUserPathName};
    // Why not: unavailable (this kernel/machine refuses: the reason says which page field or
    // setting) or not_built (this build has no user-space path for its arch).
    Status::State state = Status::State::not_built;
    std::string reason;
    std::string remedy;  // what would make it available, when something would
    std::vector<std::string> facts;  // header lines, e.g. "rdpmc sysfs: cpu/rdpmc=1 (...)"
    Json meta = Json::object();      // the same facts for JSON meta
};

// Defined once per arch: engine/tiers/perf/x86_64/ (rdpmc), engine/tiers/perf/aarch64/ (mrs
// user access), engine/tiers/perf/generic/ (none: not_built); CMake compiles the folder of
// GLINT_ARCH on Linux, generic/ otherwise (engine/CMakeLists.txt). With build == false only
// the facts are gathered (nothing is mapped or enabled, no path is built). Where the kernel
// needs a per-event opt-in (arm64: attr.config1), the group must have been opened with
// GroupSpec::user_access, which the perf tier asks for unless --perf-read=syscall.
UserReadOffer offer_user_read_path(os::PerfGroup& group, bool build);

// ---- for the paths themselves -----------------------------------------------------------------

// Stops the group when the body's exception unwinds through a bracket; disarm it once the body
// has returned (the path then stops or reads the group itself).
struct StopOnUnwind {
    os::PerfGroup& group;
    bool armed = true;
    ~StopOnUnwind() {
        if (armed) group.disable();
    }
};

// Empty when every member of `group` is one of the generic events (spec().events), which the
// user-space paths index by member; otherwise why not (a group opened from GroupSpec::specs:
// raw:, pfm:, tracepoints — those are read with read(2)).
std::string generic_members_reason(const os::PerfGroup& group);

// Maps the group's perf pages unless they are mapped already (a user-space path reads them).
// Empty when they are mapped; otherwise why not, with errno and, for an inherited group, that
// the kernel maps no pages for inherited (--perf-inherit) events.
std::string map_pages_or_reason(os::PerfGroup& group);

// ---- the choice --------------------------------------------------------------------------------

struct ReadPathSelection {
    std::unique_ptr<ReadPath> primary;   // serves the perf columns
    std::unique_ptr<ReadPath> compared;  // --perf-read=compare with a user path: the syscall path
    bool compare = false;                // --perf-read=compare (even when only syscall counts)
    bool user_offered = false;           // primary is the user-space path
    UserReadOffer user;                  // the offer (its path moved into primary), facts
};

using UserPathOffer = std::function<UserReadOffer(os::PerfGroup&, bool build)>;

// Chooses the read path(s) --perf-read asks for over `group`:
//   auto     the user path when offered, else syscall (disclosed: why not)
//   rdpmc    the same; the disclosure names the request
//   syscall  syscall (the user path only reports its facts)
//   compare  the user path for the perf columns and syscall beside it, or syscall alone
//            (disclosed: why the user side shows —)
// Disclosures are appended as "perf.read-path" statuses. `offer` is the arch's function
// (tests pass fakes).
ReadPathSelection select_read_path(os::PerfGroup& group, PerfRead requested,
                                   std::vector<Status>& disclosures,
                                   const UserPathOffer& offer = offer_user_read_path);

}  // namespace glint::engine::perf
