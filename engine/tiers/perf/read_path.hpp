// engine/tiers/perf/read_path.hpp: how the hardware tier reads its group around a body.
//
// A read path owns the mechanics of one bracket: make the group count, run the body n times,
// stop, and report what the group counted in between (count and time deltas). The tier drives
// a pass as begin_pass() (once: reset and baseline), then bracket() per batch, then end_pass().
// Paths are interchangeable: "syscall" (ioctl ENABLE/DISABLE + one read(2) of the group,
// always possible) here; "rdpmc" (x86-64, reads of the mmap pages, no system call) plugs in
// through the same interface (see select_read_path in read_path_select.cpp).
//
// Contracts of every path:
//  - bracket() returns deltas since the previous bracket of the pass (or the pass baseline),
//    so time fields never include time before the pass (RESET does not zero them).
//  - Nothing of the apparatus outside the bracket is counted: the untimed `after` of a
//    per-call case runs between brackets, with the group not counting.
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
    virtual std::string_view name() const = 0;         // "syscall", "rdpmc"
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

// Chooses the read path --perf-read asks for over `group`. Appends a Status to `disclosures`
// when the choice differs from the request (e.g. rdpmc asked but not available).
std::unique_ptr<ReadPath> select_read_path(os::PerfGroup& group, PerfRead requested,
                                           std::vector<Status>& disclosures);

}  // namespace glint::engine::perf
