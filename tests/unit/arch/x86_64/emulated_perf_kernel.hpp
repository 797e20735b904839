// A fake perf_event kernel behind the sys() seam whose hardware events live on the emulated
// x86 PMU (support/emulated_pmu.hpp): the real perf tier, group opener, PerfGroup, read paths
// and JIT stubs run unmodified, rdpmc included, on a machine without a PMU.
//
// Model:
//  - Every opened event is an EmulatedPmu event. A hardware one owns a hardware counter
//    (0, 1, 2, ... in open order, starting just below the 48-bit wrap) and sits on it only while
//    its group is enabled (page index = counter + 1); disabled, it is descheduled (index 0), as
//    the kernel does. A software one is never on a counter (index 0, no cap_user_rdpmc).
//  - A body calls work(n): n iterations add per_iteration[event kind] to every event of an
//    enabled group, and n * ns_per_iteration to the fake clock.
//  - Each ENABLE and DISABLE ioctl adds syscall_cost[event kind] to the enabled group's
//    events (the kernel's instructions of the ioctl that fall inside the window).
//  - time_enabled accumulates fake-clock time while enabled; time_running is `ratio` of it
//    (llround of ratio x time_enabled: the group was off the PMU for the rest, while the
//    emulated counters, a simplification, counted throughout, so a scaled count is the true
//    count / ratio). Every perf system call advances the clock by ns_per_call.
//  - read(2) of any member returns the group (PERF_FORMAT_GROUP) with the true counts.
//  - mmap returns the event's emulated page. grant_rdpmc = false opens hardware events
//    without cap_user_rdpmc. page_times = true publishes the same times on the hardware pages
//    of an enabled group, in the fake clock: cap_user_time with time_mult 0 (the reader's
//    extrapolation adds time_offset, 0, and nothing from the TSC), time_enabled and
//    time_running republished (lock bumped) whenever the clock moves, as the kernel's page
//    update would at each reschedule. So page times, like read(2)'s, are exact.
// Non-perf fds and paths go to the real system calls. One instance at a time.
#pragma once

#include <linux/perf_event.h>
#include <sys/types.h>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "os/linux/sys.hpp"
#include "os/perf_events.hpp"
#include "support/emulated_pmu.hpp"

namespace glint::test {

class EmulatedPerfKernel {
public:
    static constexpr int kFirstFd = 2000;
    static constexpr std::uint64_t kWrap48 = std::uint64_t{1} << 48;

    explicit EmulatedPerfKernel(EmulatedPmu& pmu);
    ~EmulatedPerfKernel();
    EmulatedPerfKernel(const EmulatedPerfKernel&) = delete;
    EmulatedPerfKernel& operator=(const EmulatedPerfKernel&) = delete;

    // ---- knobs ----
    bool no_pmu = false;        // hardware opens fail with ENOENT (a VM without a PMU)
    bool grant_rdpmc = true;    // cap_user_rdpmc on hardware pages
    bool page_times = false;    // cap_user_time on hardware pages (see above)
    double ratio = 1.0;         // time_running / time_enabled
    std::optional<os::Event> never_scheduled;  // this hardware kind stays at index 0 when enabled
    bool fail_reads = false;    // read(2) of a perf fd fails with EIO
    std::uint64_t ns_per_call = 1000;
    std::uint64_t ns_per_iteration = 10;
    std::array<std::int64_t, 10> per_iteration{};  // by os::Event
    std::array<std::int64_t, 10> syscall_cost{};   // by os::Event, per ENABLE and per DISABLE

    // ---- the body's side ----
    void work(std::uint64_t iterations);

    // ---- observations and "kernel" actions ----
    int read_calls = 0;
    int ioctl_calls = 0;
    // The emulated event behind the `member`-th event of the most recently opened group.
    int event_of_member(std::size_t member) const { return last_group_.at(member); }
    // The next ENABLE puts emulated event `id` on hardware counter `counter` (a "kernel" that
    // allocates counters differently on each schedule).
    void reassign(int id, std::uint32_t counter);
    bool any_enabled() const;
    std::vector<int> hardware_events() const;
    EmulatedPmu& pmu() { return pmu_; }

    // Handlers behind the static trampolines.
    int do_perf_event_open(perf_event_attr* attr, int group_fd);
    int do_ioctl(int fd, unsigned long request, unsigned long arg);
    ssize_t do_read(int fd, void* buf, std::size_t count);
    int do_close(int fd);
    void* do_mmap(void* addr, std::size_t length, int prot, int flags, int fd, off_t offset);
    int do_munmap(void* addr, std::size_t length);

private:
    struct Event {
        int id = -1;  // EmulatedPmu event
        os::Event kind = os::Event::cycles;
        bool hardware = false;
        std::uint32_t counter = 0;
        int leader = -1;
    };
    struct Group {
        std::vector<int> members;  // fds
        bool enabled = false;
        std::uint64_t enabled_ns = 0;
        std::uint64_t since = 0;  // fake clock at the last ENABLE
    };
    void tick(std::uint64_t ns);
    std::uint64_t enabled_ns(const Group& g) const;
    std::uint64_t running_ns(const Group& g) const;
    void charge(const Group& g, const std::array<std::int64_t, 10>& per_kind, std::int64_t times);
    void publish_times(const Group& g);

    EmulatedPmu& pmu_;
    std::map<int, Event> events_;
    std::map<int, Group> groups_;  // by leader fd
    std::vector<int> last_group_;  // emulated ids of the last group's members
    int next_fd_ = kFirstFd;
    std::uint32_t next_counter_ = 0;
    std::uint64_t clock_ = 1'000'000;
    os::linux_::SysTable table_;
    std::optional<os::linux_::ScopedSys> scope_;
};

}  // namespace glint::test
