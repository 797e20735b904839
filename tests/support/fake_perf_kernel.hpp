// tests/support/fake_perf_kernel.hpp: the tests' one fake perf_event kernel, behind the sys()
// seam (os/linux/sys.hpp). perf_event_open, and ioctl, read, close, mmap and munmap of its perf
// fds (numbered from kFirstFd), go to it; so do open, read and access of the paths it serves
// (`files`, `file_errno`, `access`); every other fd and path goes to the real system calls.
// It installs itself on construction and restores the table in force on destruction; one
// instance at a time. Its fd table is safe from several threads at once (one mutex, released
// before any real system call); an event opened with pid 0 belongs to the opening thread, one
// opened with a tid to that thread, and a group's members share its leader's (else EINVAL).
//
// Shared by both counting models below: the fd table and groups (a member names an open
// leader, else EBADF), the refusals, EINTR, short and failing reads, the served files, and the
// observations. Only how counts and times come about differs:
//
// Windows — FakePerfKernel(): for the failures and multiplexing this machine cannot produce
// (EACCES, a PMU, ratios, short reads, EINTR). Each group counts only between ENABLE and
// DISABLE. Closing a window adds `window_ns` + the work done inside it to time_enabled,
// ratio(group size) of that to time_running, and (apparatus_count + work) * ratio to every
// member, rounded: a read inside a window sees the counts of the windows closed before it.
// mmap gives every event the same zeroed page (no user read granted).
//
// The emulated x86 PMU — FakePerfKernel(EmulatedPmu&), x86-64 only
// (fake_perf_kernel_linux_x86_64.cpp, support/emulated_pmu.hpp): the real perf tier, group
// opener, PerfGroup, read paths and JIT stubs run unmodified, rdpmc included.
//  - Every opened event is an EmulatedPmu event of its thread (an attr the model does not know:
//    EINVAL); closing its fd retires it. A hardware one owns a hardware counter of its thread's
//    context (0, 1, 2, ... in that thread's open order, starting just below the 48-bit wrap:
//    two threads' first events both hold counter 0) and sits on it only while its group is
//    enabled (page index = counter + 1); disabled, it is descheduled (index 0), as the kernel
//    does. A software one is never on a counter (index 0, no cap_user_rdpmc).
//  - work(n) on thread T: n iterations add per_iteration[event kind] to every event of T's
//    enabled groups, and n * ns_per_iteration to T's fake clock (each thread has its own). Each
//    ENABLE and DISABLE adds syscall_cost[event kind] to the group's events (the kernel's
//    instructions of the ioctl that fall inside the window); each emulated rdpmc T executes adds
//    rdpmc_cost[event kind] to T's events. Every perf system call advances the caller's clock
//    by ns_per_call.
//  - time_enabled accumulates the group's thread's fake-clock time while enabled;
//    time_running is llround(ratio x time_enabled) (the group was off the PMU for the rest,
//    while the emulated counters, a simplification, counted throughout: a scaled count is the
//    true count / ratio).
//  - read(2) returns the group with the true counts, live. mmap returns the event's emulated
//    page. grant_rdpmc = false opens hardware events without cap_user_rdpmc. page_times = true
//    publishes the same times on the hardware pages of an enabled group, in the fake clock:
//    cap_user_time with time_mult 0 (the reader's extrapolation adds time_offset, 0, and nothing
//    from the TSC), time_enabled and time_running republished (lock bumped) whenever the
//    thread's clock moves, as the kernel's page update would at each reschedule; so page times
//    are exact.
//  - by_thread (both models): each thread's perf read(2) calls and, here, the thread's emulated
//    rdpmc count at each (a read inside a bracket's window falls between one stub's rdpmc).
#pragma once

#include <linux/perf_event.h>
#include <sys/types.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "os/linux/sys.hpp"
#include "os/perf_events.hpp"

namespace glint::test {

class EmulatedPmu;  // support/emulated_pmu.hpp (x86-64)

class FakePerfKernel {
  public:
    static constexpr int kFirstFd = 1000;

    FakePerfKernel();                           // counts by windows
    explicit FakePerfKernel(EmulatedPmu& pmu);  // counts on the emulated PMU (x86-64 only)
    ~FakePerfKernel();
    FakePerfKernel(const FakePerfKernel&) = delete;
    FakePerfKernel& operator=(const FakePerfKernel&) = delete;

    // ---- knobs, both models ----
    int refuse_kernel_errno = 0;  // refuse opens counting the kernel (exclude_kernel == 0)
    int refuse_all_errno = 0;     // refuse every open
    int hardware_errno = 0;       // refuse PERF_TYPE_HARDWARE opens (ENOENT: no PMU)
    std::map<std::uint64_t, int> hardware_config_errno;  // refuse one hardware config
    // time_running / time_enabled of a group of `members` events.
    std::function<double(std::size_t members)> ratio = [](std::size_t) { return 1.0; };
    int eintr_opens = 0;               // the next N perf_event_open calls fail with EINTR
    int eintr_reads = 0;               // likewise read(2) of a perf fd
    int eintr_ioctls = 0;              // likewise ioctl(2) of a perf fd
    int short_reads_after = -1;        // perf reads after this many return 8 bytes short
    int read_errno = 0;                // every read(2) of a perf fd fails with this errno
    int enable_errno = 0;              // every PERF_EVENT_IOC_ENABLE fails with this errno
    int max_precise_ip = 3;            // a hardware open asking more fails with EOPNOTSUPP
    std::size_t mmap_limit_bytes = 0;  // a longer mmap of a perf fd fails with EPERM (the
                                       // locked-memory limit); 0: no limit
    // Files served instead of the real ones (path -> content), and paths that fail to open.
    std::map<std::string, std::string> files{{"/proc/sys/kernel/perf_event_paranoid", "2\n"}};
    std::map<std::string, int> file_errno;
    std::function<int(const char* path, int mode)> access;  // unset: the real access(2)

    // ---- knobs, windows ----
    std::uint64_t window_ns = 2000;       // enabled time each window adds
    std::uint64_t apparatus_count = 100;  // count each window adds to every member

    // ---- knobs, the emulated PMU ----
    bool grant_rdpmc = true;                   // cap_user_rdpmc on hardware pages
    bool page_times = false;                   // cap_user_time on hardware pages (see above)
    std::optional<os::Event> never_scheduled;  // this hardware kind stays at index 0 when enabled
    std::uint64_t ns_per_call = 1000;
    std::uint64_t ns_per_iteration = 10;
    std::array<std::int64_t, 10> per_iteration{};  // by os::Event
    std::array<std::int64_t, 10> syscall_cost{};   // by os::Event, per ENABLE and per DISABLE
    std::array<std::int64_t, 10> rdpmc_cost{};     // by os::Event, per emulated rdpmc (0: the
                                                   // EmulatedPmu's own read costs stand)
    // The next ENABLE puts emulated event `id` on hardware counter `counter` (a "kernel" that
    // allocates counters differently on each schedule).
    void reassign(int id, std::uint32_t counter);

    // ---- the body's side ----
    void work(std::uint64_t units);  // counted only while a group of the caller's is enabled

    // ---- observations ----
    std::vector<perf_event_attr> opened;  // every accepted attr, in order
    int open_calls = 0;
    int read_calls = 0;
    int enable_calls = 0;
    int disable_calls = 0;
    int reset_calls = 0;
    std::vector<std::pair<unsigned long, unsigned long>> ioctls;  // (request, arg), perf fds only
    struct ThreadCalls {
        int reads = 0;                              // perf read(2) calls
        std::vector<std::uint64_t> traps_at_reads;  // the thread's emulated rdpmc count at each
    };
    std::map<pid_t, ThreadCalls> by_thread;
    bool any_enabled() const;
    int live_fds() const;
    static pid_t caller();  // the calling thread's id (gettid)

    // Handlers behind the static trampolines.
    int do_perf_event_open(perf_event_attr* attr, int group_fd, pid_t pid = 0);
    int do_ioctl(int fd, unsigned long request, unsigned long arg);
    ssize_t do_read(int fd, void* buf, std::size_t count);
    int do_open(const char* path, int flags, int mode);
    int do_close(int fd);
    void* do_mmap(void* addr, std::size_t length, int prot, int flags, int fd, off_t offset);
    int do_munmap(void* addr, std::size_t length);
    int do_access(const char* path, int mode);

  private:
    struct Event {
        perf_event_attr attr;
        int leader = -1;
        pid_t owner = 0;          // the thread it counts
        std::uint64_t value = 0;  // windows: the count
        // The emulated PMU: the EmulatedPmu event, its kind, and its hardware counter.
        int id = -1;
        os::Event kind = os::Event::cycles;
        bool hardware = false;
        std::uint32_t counter = 0;
    };
    struct Group {
        std::vector<int> members;  // fds, leader first
        pid_t owner = 0;           // its events' thread
        bool enabled = false;
        std::uint64_t time_enabled = 0;  // accumulated over closed windows
        std::uint64_t time_running = 0;  // windows only (the emulated PMU derives it)
        std::uint64_t pending = 0;       // windows: work done in the open window
        std::uint64_t since = 0;         // the emulated PMU: fake clock at the last ENABLE
    };

    // How counts and times come about. The kernel calls enable() after marking the group
    // enabled, disable() before marking it disabled, and each at most once per change.
    class Model {
      public:
        virtual ~Model() = default;
        virtual int open(Event& e) = 0;  // 0, or the errno refusing an event it cannot count
        virtual void call() {}           // every perf system call, before it acts
        virtual void enable(Group& g) = 0;
        virtual void disable(Group& g) = 0;
        virtual void reset(Group& g) = 0;
        virtual void work(std::uint64_t units) = 0;
        // Appends time_enabled, time_running, then each member's count.
        virtual void read(const Group& g, std::vector<std::uint64_t>& data) = 0;
        virtual void* page(const Event& e) = 0;
        virtual bool owns_page(const void* addr) const = 0;
        virtual void close(const Event&) {}
        virtual std::uint64_t traps_of(pid_t) const { return 0; }  // emulated rdpmc by a thread
    };
    class WindowModel;  // fake_perf_kernel_linux.cpp
    class PmuModel;     // fake_perf_kernel_linux_x86_64.cpp

    void install();

    mutable std::mutex mutex_;  // the tables and the model; never held in a real system call
    std::unique_ptr<Model> model_;
    std::map<int, Event> events_;
    std::map<int, Group> groups_;  // by leader fd
    struct OpenFile {
        std::string content;
        std::size_t offset = 0;
    };
    std::map<int, OpenFile> files_open_;  // fds 900..999
    int next_fd_ = kFirstFd;
    int next_file_fd_ = 900;
    os::linux_::SysTable table_;
    std::optional<os::linux_::ScopedSys> scope_;
};

}  // namespace glint::test
