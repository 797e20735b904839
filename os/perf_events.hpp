// os/perf_events.hpp: counting groups of performance events, the OS-neutral surface.
//
// Linux implements it on perf_event_open(2) (os/linux/perf_group.cpp, every call through the
// os/linux/sys.hpp seam); other systems get honest stubs (os/other/perf_events.cpp): every open
// fails with ENOSYS, so the engine reports "unavailable" with the reason instead of guessing.
//
// A group is opened disabled, leader first; enable/disable/reset act on the whole group; one
// read returns every member's count plus the leader's time_enabled/time_running. Nothing here
// interprets values: no scaling, no deltas, no policy (the engine's perf tier does that).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "os/perf_probes.hpp"

namespace glint::os {

// The generic events glint counts. Hardware ones need a CPU PMU; software ones are kernel
// counters that exist everywhere perf_event does.
enum class Event : std::uint8_t {
    cycles,            // hardware
    instructions,      // hardware
    branches,          // hardware
    branch_misses,     // hardware
    cache_references,  // hardware (the "LLC pair" with cache_misses)
    cache_misses,      // hardware
    page_faults,       // software
    task_clock,        // software (nanoseconds on CPU)
    context_switches,  // software
    cpu_migrations,    // software
};

// perf's own spelling ("cycles", "branch-misses", "task-clock", ...).
constexpr std::string_view event_name(Event event) {
    switch (event) {
        case Event::cycles:
            return "cycles";
        case Event::instructions:
            return "instructions";
        case Event::branches:
            return "branches";
        case Event::branch_misses:
            return "branch-misses";
        case Event::cache_references:
            return "cache-references";
        case Event::cache_misses:
            return "cache-misses";
        case Event::page_faults:
            return "page-faults";
        case Event::task_clock:
            return "task-clock";
        case Event::context_switches:
            return "context-switches";
        case Event::cpu_migrations:
            return "cpu-migrations";
    }
    return "?";
}

constexpr bool is_hardware(Event event) { return event < Event::page_faults; }

// Members of one group: the seven-event hardware group, or up to 63 syscall tracepoints.
inline constexpr std::size_t kMaxGroupEvents = 64;

// An event beyond the generic ones (raw:, pfm:, tracepoints): the perf_event_attr fields that
// select it, as the kernel takes them. The os/ helpers that resolve names build these.
struct EventSpec {
    std::uint32_t type = 0;  // perf_event_attr.type: kRawEventType, kTracepointEventType, a PMU's
    std::uint64_t config = 0;
    std::uint64_t config1 = 0;
    std::uint64_t config2 = 0;
    bool exclude_user = false;
    bool exclude_kernel = false;
    std::string name;  // for messages ("raw:r00c0", "syscalls:sys_enter_write")
};
inline constexpr std::uint32_t kSoftwareEventType = 1;    // PERF_TYPE_SOFTWARE
inline constexpr std::uint32_t kTracepointEventType = 2;  // PERF_TYPE_TRACEPOINT
inline constexpr std::uint32_t kRawEventType = 4;         // PERF_TYPE_RAW

struct GroupSpec {
    std::vector<Event> events;    // events[0] leads; at most kMaxGroupEvents
    bool exclude_kernel = false;  // count user space only
    bool inherit = false;         // also count threads/processes created after the open
    long tid = 0;  // the thread counted: 0 the opening thread, else that thread of the process
    // Prepare the hardware members for reads from user space where the kernel grants those per
    // event. On Linux with an arm64 core PMU (an armv8_* device in pmu_root): attr.config1 bit
    // 1 when kernel.perf_user_access is 1, and bit 0 (a 64-bit counter, each member falling
    // back to 32 bits when the PMU refuses with EOPNOTSUPP) when want_64bit. Where no such
    // opt-in exists (x86 grants rdpmc to every mapped event) nothing changes: config1 stays 0.
    // PerfGroup::user_access() reports what was done, and why not when it could not be.
    bool user_access = false;
    bool want_64bit = true;
    std::string pmu_root = kPmuSysfsRoot;  // where the core PMU is looked up (tests: a fake)
    // When not empty, these are opened instead of `events` (specs[0] leads; at most
    // kMaxGroupEvents), each with its own exclude flags or'ed with exclude_kernel above.
    std::vector<EventSpec> specs;

    std::size_t size() const { return specs.empty() ? events.size() : specs.size(); }
};

// What PerfGroup::open did about GroupSpec::user_access.
struct UserAccessGrant {
    enum class Mode : std::uint8_t {
        not_requested,   // spec.user_access was false
        not_applicable,  // no per-event opt-in here (no arm64 core PMU): nothing asked
        requested,       // every hardware member was opened asking for user access
        refused,         // the opt-in exists but was not asked for: `reason`, `remedy`
    };
    Mode mode = Mode::not_requested;
    std::string pmu;     // the core PMU whose rules were applied or looked for
    std::string reason;  // not_applicable / refused: what was found
    std::string remedy;  // refused: what would allow it, when something would
    std::array<bool, kMaxGroupEvents> counter64{};        // member i got a 64-bit counter
    std::array<bool, kMaxGroupEvents> fell_back_to_32{};  // asked for 64 bits, given 32
};

// Why an open failed: which member and the errno the kernel returned.
struct OpenFailure {
    Event event = Event::cycles;  // the failing member of `events` (unset for `specs`)
    int error = 0;                // errno
    std::size_t member = 0;       // index of the failing member, in events or specs
};

// One read of the whole group. Counts and times are cumulative since the open (RESET zeroes
// the counts but not the times, and not counts folded in from exited inherited children), so
// callers take differences against their own baseline.
struct GroupReading {
    std::uint64_t enabled = 0;  // time_enabled, ns
    std::uint64_t running = 0;  // time_running, ns (the time the group was on the PMU)
    std::array<std::uint64_t, kMaxGroupEvents> values{};
    std::size_t size = 0;  // members read
    bool ok = false;       // false: error, short read or unexpected member count
};

class PerfGroup {
  public:
    PerfGroup() = default;
    ~PerfGroup();
    PerfGroup(PerfGroup&& other) noexcept;
    PerfGroup& operator=(PerfGroup&& other) noexcept;
    PerfGroup(const PerfGroup&) = delete;
    PerfGroup& operator=(const PerfGroup&) = delete;

    // Opens spec.events (or spec.specs) as one group on spec.tid (0: this thread), any CPU,
    // disabled, read_format GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING. On failure
    // nothing stays open and `failure` names the member and errno. EINTR is retried.
    bool open(const GroupSpec& spec, OpenFailure& failure);
    void close();  // closes the fds and unmaps the pages; idempotent

    bool is_open() const { return !fds_.empty(); }
    const GroupSpec& spec() const { return spec_; }
    const UserAccessGrant& user_access() const { return user_access_; }
    std::size_t size() const { return fds_.size(); }
    int fd(std::size_t member) const { return fds_[member]; }
    int leader_fd() const { return fds_.empty() ? -1 : fds_[0]; }

    // Start/stop the whole group (ioctl on the leader) and zero every member's count
    // (EINTR retried). false with errno set on failure.
    bool enable();
    bool disable();
    bool reset();

    // One read(2) of the leader. Returns out.ok.
    bool read(GroupReading& out) const;

    // Maps each member's perf_event_mmap_page (one page, PROT_READ, shared). Returns 0, or
    // the errno of the first failure (then no page stays mapped). The kernel refuses this for
    // inherited per-thread events (EINVAL).
    int map_pages();
    bool pages_mapped() const { return !pages_.empty(); }
    // The member's struct perf_event_mmap_page (Linux), nullptr when not mapped.
    const void* page(std::size_t member) const { return pages_.empty() ? nullptr : pages_[member]; }

  private:
    void unmap_pages();

    GroupSpec spec_;
    UserAccessGrant user_access_;
    std::vector<int> fds_;
    std::vector<void*> pages_;
    std::size_t page_size_ = 0;
};

}  // namespace glint::os
