// tests/aarch64/guest/guest_events.hpp: real perf events in the arm64 guest, for the guest tests.
//
// Opens events on the armv8 PMU (type from sysfs) through os/linux/aarch64/user_access (config1
// bits, 64 -> 32-bit fallback) and the sys() seam, maps each event's perf page, and offers the
// read(2) view of the same counters to compare the user-access reads against.
#pragma once

#include <linux/perf_event.h>

#include <cstdint>
#include <string>
#include <vector>

#include "os/linux/aarch64/bracket.hpp"
#include "os/linux/aarch64/user_access.hpp"

namespace glint::guest {

// The CPU model QEMU emulates, as the rig told the guest (kernel command line glint.cpu=...).
std::string guest_cpu();
inline bool cpu_has_64bit_event_counters() { return guest_cpu() == "max"; }

struct EventSpec {
    std::uint64_t config = os::linux_::kArmv8InstRetired;
    bool exclude_kernel = true;
    std::uint64_t sample_period = 0;  // 0: a counting event
};

struct OpenOptions {
    bool as_group = true;     // false: every event is its own leader
    bool user_access = true;  // config1 bit 1 (through open_user_access_event)
    bool want_64bit = true;   // config1 bit 0, falling back to 32-bit on EOPNOTSUPP
};

// One read(2) of an event or group: counts in group order plus the group's times.
struct SyscallReading {
    std::vector<std::uint64_t> counts;
    std::uint64_t enabled = 0;
    std::uint64_t running = 0;
};

class Events {
  public:
    Events(const std::vector<EventSpec>& specs, const OpenOptions& options);
    ~Events();
    Events(const Events&) = delete;
    Events& operator=(const Events&) = delete;

    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }
    std::size_t size() const { return fds_.size(); }
    int fd(std::size_t i) const { return fds_[i]; }
    const perf_event_mmap_page* page(std::size_t i) const { return pages_[i]; }
    // Event i was opened asking for (and granted) a 64-bit counter / asked and was refused.
    bool counter64(std::size_t i) const { return counter64_[i]; }
    bool fell_back_to_32(std::size_t i) const { return fell_back_to_32_[i]; }

    void enable();  // every leader, whole group
    void disable();
    void reset();

    // read(2) of event i's leader: the counts of its group (one count when not a group).
    SyscallReading read_leader_of(std::size_t i) const;
    // read(2) of event i alone (its count picked out of its group's reading).
    std::int64_t read_count(std::size_t i) const;

    // The pages in order, with read(2) as the fallback, for the arm64 brackets.
    const os::linux_::Arm64GroupPages& bracket_pages() const { return group_pages_; }
    // The layout the pages show now (call while enabled).
    os::linux_::Arm64Layout layout() const;

  private:
    bool as_group_ = true;
    std::vector<int> fds_;
    std::vector<perf_event_mmap_page*> pages_;
    std::vector<bool> counter64_;
    std::vector<bool> fell_back_to_32_;
    std::string error_;
    os::linux_::Arm64GroupPages group_pages_;
};

// A <glint/hot.hpp> fallback (hot::Attachment::slow) over an Events group (context: the
// Events): one read(2) of the group, every count and the leader's time_enabled - time_running.
void read_group_for_hot(const void* context, std::int64_t* counts, std::size_t count,
                        std::int64_t& descheduled_ns);

// Writes /proc/sys/kernel/perf_user_access for the scope of the object, restoring the old value.
class ScopedUserAccess {
  public:
    explicit ScopedUserAccess(int value);
    ~ScopedUserAccess();

  private:
    int previous_;
};

bool write_sysctl(const char* path, int value);

}  // namespace glint::guest
