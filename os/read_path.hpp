// os/read_path.hpp: how a counting group is read around a body — the interface every read path
// implements (syscall, or the arch's user-space path offered by offer_user_read_path, one per
// arch×OS home). A pass is begin_pass(), bracket() per batch, end_pass().
// Contracts of every path:
//  - bracket() returns what the group counted during that bracket (counts and times).
//  - Nothing outside the bracket is counted: a per-call case's after() runs in no delta.
//  - A failed read/ioctl gives ok == false (the pass renders nan); the body still runs n times.
//  - If the body throws, the group stops counting before the exception leaves bracket().
// Rationale and details: docs/rationale.md, "os/read_path.hpp".
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "os/perf_events.hpp"

namespace glint::os {

// A body to bracket: run(ctx, n) runs n iterations (a case's compiled batch).
struct Body {
    void (*run)(void* ctx, std::uint64_t n) = nullptr;
    void* ctx = nullptr;
};

// What happened to the group between two reads: count deltas and time deltas.
struct GroupDelta {
    std::array<std::uint64_t, kMaxGroupEvents> counts{};
    std::size_t size = 0;
    std::uint64_t enabled = 0;  // ns the group was enabled
    std::uint64_t running = 0;  // ns it was on the PMU
    bool ok = false;            // false: a read failed, was short, or went backwards
};

// after - before, member by member. Not ok when either reading is not ok, the sizes differ,
// or any field went backwards (a reset between them: the caller broke the baseline).
GroupDelta delta_between(const GroupReading& before, const GroupReading& after);

// Where a read path writes the facts it discloses in JSON meta (the engine writes them into its
// JSON document), so a back end needs no JSON library. Keys keep the order they are written in.
class MetaWriter {
  public:
    virtual ~MetaWriter() = default;
    virtual void text(std::string_view key, std::string_view value) = 0;
    virtual void number(std::string_view key, double value) = 0;  // nan: null
    virtual void flag(std::string_view key, bool value) = 0;
    virtual void null(std::string_view key) = 0;
    virtual void texts(std::string_view key, const std::vector<std::string>& values) = 0;
    // An empty list of records under `key` (so an empty list still appears).
    virtual void records(std::string_view key) = 0;
    // Appends a record to the list under `key` (created when absent); the returned writer fills
    // that record and stays valid until the next call on this writer.
    virtual MetaWriter& append_record(std::string_view key) = 0;
};

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
    // Path-specific facts for JSON meta (layout, retries, slow reads); none by default.
    virtual void meta(MetaWriter&) const {}
};

// The --perf-read name of the user-space path ("rdpmc", alias "user") on every arch: x86-64
// rdpmc, arm64 mrs user access. Compare-mode column names use it (instr@rdpmc, ...), so JSON
// keys match on every host; the path itself keeps its own name (ReadPath::name()).
inline constexpr std::string_view kUserPathName = "rdpmc";

// What the arch's user-space path made of a group: a path, or why not, plus facts to disclose.
struct UserReadOffer {
    enum class State : std::uint8_t {
        available,    // `path` is set
        unavailable,  // this kernel/machine refuses: `reason` says which page field or setting
        not_built,    // this build has no user-space path for its arch×OS
    };
    std::unique_ptr<ReadPath> path;  // null: not offered
    // The path's name, offered or not ("rdpmc", "user-access"): disclosures, meta.userRead.
    std::string name{kUserPathName};
    State state = State::not_built;
    std::string reason;
    std::string remedy;                     // what would make it available, when something would
    std::vector<std::string> facts;         // header lines, e.g. "rdpmc sysfs: cpu/rdpmc=1 (...)"
    std::function<void(MetaWriter&)> meta;  // the same facts for JSON meta (may be empty)
};

// Defined once per arch×OS back end (see the top of this file). With build == false only the
// facts are gathered (nothing is mapped or enabled, no path is built). Where the kernel needs a
// per-event opt-in (arm64: attr.config1), the group must have been opened with
// GroupSpec::user_access.
UserReadOffer offer_user_read_path(PerfGroup& group, bool build);

// ---- for the paths themselves -----------------------------------------------------------------

// Stops the group when the body's exception unwinds through a bracket; disarm it once the body
// has returned (the path then stops or reads the group itself).
struct StopOnUnwind {
    PerfGroup& group;
    bool armed = true;
    ~StopOnUnwind() {
        if (armed) group.disable();
    }
};

// Empty when every member of `group` is one of the generic events (spec().events), which the
// user-space paths index by member; otherwise why not (a group opened from GroupSpec::specs:
// raw:, pfm:, tracepoints — those are read with read(2)).
std::string generic_members_reason(const PerfGroup& group);

// Maps the group's perf pages unless they are mapped already (a user-space path reads them).
// Empty when they are mapped; otherwise why not, with errno and, for an inherited group, that
// the kernel maps no pages for inherited (--perf-inherit) events.
std::string map_pages_or_reason(PerfGroup& group);

}  // namespace glint::os
