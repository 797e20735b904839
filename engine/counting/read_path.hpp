// engine/counting/read_path.hpp: the read paths of a counting group, as the engine uses them.
//
// The ReadPath interface and the user-space path's offer are os/'s (os/read_path.hpp: one back
// end per arch×OS); here are the syscall path, the calibration of a path's own cost, and the
// choice --perf-read makes between them.
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

#include "engine/counting/pass_math.hpp"
#include "engine/counting/perf_read.hpp"
#include "engine/model/json.hpp"
#include "engine/model/status.hpp"
#include "os/perf_events.hpp"
#include "os/read_path.hpp"

namespace glint::engine::counting {

using os::Body;
using os::kUserPathName;
using os::ReadPath;
using os::StopOnUnwind;
using os::UserReadOffer;

// A case's compiled batch as a body to bracket.
inline Body body_of(glint::detail::Batch batch) { return Body{batch.run, batch.ctx}; }

// The syscall path over an open group (which must outlive it).
std::unique_ptr<ReadPath> make_syscall_path(os::PerfGroup& group);

// An empty body (n iterations of nothing): what calibration brackets.
Body empty_body();

// A path's JSON meta (ReadPath::meta), and an offer's (UserReadOffer::meta).
Json meta_json(const ReadPath& path);
Json meta_json(const UserReadOffer& offer);
// An offer's state in the engine's words.
Status::State state_of(const UserReadOffer& offer);

// The bracket's own cost at open, per path, for the header and meta: the per-member median of
// `brackets` empty-body brackets (n = 0) in one pass, the cycles one bracket costs, and its
// time. Values not measured are nan. (Passes subtract their own interleaved empty brackets:
// see pass_runner.hpp.)
inline constexpr std::size_t kCalibrationBrackets = 31;
struct PathCost {
    BracketCost counts;  // per member: median of the empty brackets
    double cycles = std::numeric_limits<double>::quiet_NaN();     // nan: no cycles member
    double wall_ns = std::numeric_limits<double>::quiet_NaN();    // one whole bracket() call
    double window_ns = std::numeric_limits<double>::quiet_NaN();  // first to last counter read
    std::string clock;  // what timed wall_ns and window_ns: the tick counter's name, or
                        // "steady_clock" where it is not usable
};
PathCost calibrate_path(ReadPath& path, const std::vector<os::Event>& members,
                        std::size_t brackets = kCalibrationBrackets);

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
// Disclosures are appended as "perf.read-path" statuses. `offer` is the back end's
// os::offer_user_read_path (tests pass fakes).
ReadPathSelection select_read_path(os::PerfGroup& group, PerfRead requested,
                                   std::vector<Status>& disclosures,
                                   const UserPathOffer& offer = os::offer_user_read_path);

}  // namespace glint::engine::counting
