// engine/tiers/perf/read_path.hpp: how the hardware tier reads its group around a body.
//
// A read path owns the mechanics of one bracket: make the group count, run the body n times,
// stop, and report what the group counted in between (count and time deltas). The tier drives
// a pass as begin_pass() (once: reset and baseline), then bracket() per batch, then end_pass().
// Paths are interchangeable: "syscall" (ioctl ENABLE/DISABLE + one read(2) of the group,
// always possible) here; the user-space path of the build's arch (reads of the mmap pages, no
// system call inside the bracket: x86-64 rdpmc, AArch64 user access) through
// make_user_read_path, one implementation per arch (see select_read_path).
//
// Contracts of every path:
//  - bracket() returns what the group counted during that bracket (counts and times), so
//    time fields never include time before the pass (RESET does not zero them).
//  - Nothing of the apparatus outside the bracket is counted: the untimed `after` of a
//    per-call case runs between brackets, in no delta (the syscall path stops the group
//    between brackets; a user-space path keeps it counting for the pass and reads it only at
//    a bracket's two ends).
//  - A failed read/ioctl gives a delta with ok == false; the pass then renders nan.
//  - If the body throws, the group stops counting before the exception leaves bracket().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <glint/bench.hpp>

#include "engine/cli/options.hpp"
#include "engine/model/status.hpp"
#include "engine/tiers/perf/pass_math.hpp"
#include "os/perf_events.hpp"

namespace glint::engine::perf {

// A body to bracket: body.run(body.ctx, n) runs n iterations (a case's compiled batch).
using Body = glint::detail::Batch;

class ReadPath {
public:
    virtual ~ReadPath() = default;
    virtual std::string_view name() const = 0;  // "syscall", "rdpmc", "user-access"
    virtual std::string describe() const = 0;          // one line for the header
    // Starts a pass: zero the counters, take the baseline. false when the group cannot be
    // reset or read (the pass then renders nan).
    virtual bool begin_pass() = 0;
    virtual GroupDelta bracket(Body body, std::uint64_t n) = 0;
    virtual void end_pass() {}
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

// The user-space read path of this build over `group`, or nullptr with why not (capability
// "perf.read-path", a state, the reason, the remedy when there is one) in `refusal`.
// One implementation per arch, in engine/tiers/perf/<arch>/ (CMake compiles GLINT_ARCH's on
// Linux, generic/ otherwise): x86_64 rdpmc, aarch64 user access (mrs), generic none
// (not_built). The group must have been opened with GroupSpec::user_access where the arch
// needs it (the perf tier asks for it unless --perf-read=syscall).
std::unique_ptr<ReadPath> make_user_read_path(os::PerfGroup& group, Status& refusal);

// Chooses the read path --perf-read asks for over `group`. Appends a Status to `disclosures`
// when the choice differs from the request (e.g. rdpmc asked but not available) or from the
// default (auto, and the build's user path refused: the syscall fallback is disclosed).
std::unique_ptr<ReadPath> select_read_path(os::PerfGroup& group, PerfRead requested,
                                           std::vector<Status>& disclosures);

}  // namespace glint::engine::perf
