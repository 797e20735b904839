// A fake perf_event kernel behind the sys() seam, for tests that need the failures and
// multiplexing this machine cannot produce (EACCES, a PMU, ratios, short reads, EINTR).
//
// Model: each group counts only between ENABLE and DISABLE. Closing a window adds
// `window_ns` + the work done inside it to time_enabled, ratio(group size) of that to
// time_running, and (apparatus_count + work) * ratio to every member, rounded. A body calls
// work(units) to "execute" units of everything (instructions, faults, ns, ...).
// Perf fds start at kFirstFd; the paths in `files` are served from memory; every other fd and
// path goes to the real system calls. Installs itself on construction, restores the real
// table on destruction.
#pragma once

#include <linux/perf_event.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "os/linux/sys.hpp"

namespace glint::test {

class FakePerfKernel {
public:
    static constexpr int kFirstFd = 1000;

    FakePerfKernel();
    ~FakePerfKernel();
    FakePerfKernel(const FakePerfKernel&) = delete;
    FakePerfKernel& operator=(const FakePerfKernel&) = delete;

    // ---- knobs ----
    int refuse_kernel_errno = 0;    // refuse opens counting the kernel (exclude_kernel == 0)
    int refuse_all_errno = 0;       // refuse every open
    int hardware_errno = 0;         // refuse PERF_TYPE_HARDWARE opens (ENOENT: no PMU)
    std::map<std::uint64_t, int> hardware_config_errno;  // refuse one hardware config
    std::function<double(std::size_t members)> ratio = [](std::size_t) { return 1.0; };
    std::uint64_t window_ns = 2000;       // enabled time each window adds
    std::uint64_t apparatus_count = 100;  // count each window adds to every member
    int eintr_opens = 0;                  // the next N perf_event_open calls fail with EINTR
    int eintr_reads = 0;                  // likewise read(2) of a perf fd
    int eintr_ioctls = 0;                 // likewise ioctl(2) of a perf fd
    int short_reads_after = -1;           // perf reads after this many return 8 bytes short
    int enable_errno = 0;                 // every PERF_EVENT_IOC_ENABLE fails with this errno
    // Files served instead of the real ones (path -> content), and paths that fail to open.
    std::map<std::string, std::string> files{{"/proc/sys/kernel/perf_event_paranoid", "2\n"}};
    std::map<std::string, int> file_errno;
    std::function<int(const char* path, int mode)> access;  // unset: the real access(2)

    // ---- the body's side ----
    void work(std::uint64_t units);  // counted only while a group is enabled

    // ---- observations ----
    std::vector<perf_event_attr> opened;  // every accepted attr, in order
    int open_calls = 0;
    int read_calls = 0;
    int enable_calls = 0;
    int disable_calls = 0;
    int reset_calls = 0;
    std::vector<std::pair<unsigned long, unsigned long>> ioctls;  // (request, arg), perf fds only
    bool any_enabled() const;
    int live_fds() const;

    // Handlers behind the static trampolines.
    int do_perf_event_open(perf_event_attr* attr, int group_fd);
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
        int leader;
        std::uint64_t value = 0;
    };
    struct Group {
        std::vector<int> members;
        bool enabled = false;
        std::uint64_t time_enabled = 0;
        std::uint64_t time_running = 0;
        std::uint64_t pending = 0;  // work done in the open window
    };
    void close_window(Group& group);

    std::map<int, Event> events_;
    std::map<int, Group> groups_;  // by leader fd
    struct OpenFile {
        std::string content;
        std::size_t offset = 0;
    };
    std::map<int, OpenFile> files_open_;  // fds 900..999
    int next_fd_ = kFirstFd;
    int next_file_fd_ = 900;
    alignas(4096) unsigned char page_[4096] = {};
    os::linux_::SysTable table_;
    std::optional<os::linux_::ScopedSys> scope_;
};

}  // namespace glint::test
