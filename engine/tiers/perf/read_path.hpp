// engine/tiers/perf/read_path.hpp: how the hardware tier reads its group around a body.
//
// A read path owns the mechanics of one bracket: make the group count, run the body n times,
// stop, and report what the group counted in between (count and time deltas). The tier drives
// a pass as begin_pass() (once: reset and baseline), then bracket() per batch, then end_pass().
// Paths are interchangeable: "syscall" (ioctl ENABLE/DISABLE + one read(2) of the group,
// always possible) and the arch's user-space path (x86-64: "rdpmc", JIT stubs reading the mmap
// pages; engine/tiers/perf/x86_64/), chosen by select_read_path below.
//
// Contracts of every path:
//  - bracket() returns deltas since the previous bracket of the pass (or the pass baseline),
//    so time fields never include time before the pass (RESET does not zero them).
//  - Nothing of the apparatus outside the bracket is counted: the untimed `after` of a
//    per-call case runs between brackets, outside every counting window (the syscall path
//    stops the group; the rdpmc path leaves it running and differences inside the window).
//  - A failed read/ioctl gives a delta with ok == false; the pass then renders nan.
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

#include "engine/cli/options.hpp"
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
    virtual std::string_view name() const = 0;         // "syscall", "rdpmc"
    virtual std::string describe() const = 0;          // one line for the header
    // Starts a pass: zero the counters, take the baseline. false when the group cannot be
    // reset or read (the pass then renders nan).
    virtual bool begin_pass() = 0;
    virtual GroupDelta bracket(Body body, std::uint64_t n) = 0;
    virtual void end_pass() {}
    // Timestamp-counter ticks of the last bracket's counting window, from before its first
    // counter read to after its last, when the path can time that apart from its system calls
    // (rdpmc: the JIT stub call, without the read(2) of software members); nan otherwise.
    virtual double last_window_ticks() const { return std::numeric_limits<double>::quiet_NaN(); }
    // Path-specific facts for JSON meta (layout, retries, slow reads); {} by default.
    virtual Json meta() const { return Json::object(); }
};

// The syscall path over an open group (which must outlive it).
std::unique_ptr<ReadPath> make_syscall_path(os::PerfGroup& group);

// An empty body (n iterations of nothing): what calibration brackets.
Body empty_body();

// The bracket's own cost at open: the per-member median of `brackets` empty-body brackets
// (n = 0) in one pass, shown in the header and meta per path. (Passes subtract their own
// interleaved empty brackets: see pass_runner.hpp.)
inline constexpr std::size_t kCalibrationBrackets = 31;
BracketCost calibrate_bracket_cost(ReadPath& path, std::size_t brackets = kCalibrationBrackets);

// The same calibration with the figures the header and meta show per path: the counts, the
// cycles one bracket costs, and its time. Values not measured are nan.
struct PathCost {
    BracketCost counts;        // per member: median of the empty brackets
    double cycles = std::numeric_limits<double>::quiet_NaN();     // nan: no cycles member
    double wall_ns = std::numeric_limits<double>::quiet_NaN();    // one whole bracket() call
    double window_ns = std::numeric_limits<double>::quiet_NaN();  // first to last counter read
    std::string clock;  // what timed wall_ns and window_ns: "TSC" or "steady_clock"
};
PathCost calibrate_path(ReadPath& path, const std::vector<os::Event>& members,
                        std::size_t brackets = kCalibrationBrackets);

// ---- the user-space read path, per arch --------------------------------------------------------

// The --perf-read name of the user-space path ("rdpmc", alias "user"), on every arch: x86-64
// rdpmc, arm64 mrs user access. Compare-mode column names use it, so JSON keys match on every host.
inline constexpr std::string_view kUserPathName = "rdpmc";

// What the arch's user-space path made of a group: a path, or why not, plus facts to disclose.
struct UserReadOffer {
    std::unique_ptr<ReadPath> path;  // null: not offered
    // Why not: unavailable (this kernel/machine refuses: the reason says which page field or
    // setting) or not_built (this build has no user-space path for its arch).
    Status::State state = Status::State::not_built;
    std::string reason;
    std::string remedy;
    std::vector<std::string> facts;  // header lines, e.g. "rdpmc sysfs: cpu/rdpmc=1 (...)"
    Json meta = Json::object();      // the same facts for JSON meta
};

// Defined once per arch: engine/tiers/perf/x86_64/ (rdpmc), engine/tiers/perf/aarch64/ (mrs),
// engine/tiers/perf/generic/ (none: not_built). With build == false only the facts are
// gathered (nothing is mapped or enabled, no path is built).
UserReadOffer offer_user_read_path(os::PerfGroup& group, bool build);

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
