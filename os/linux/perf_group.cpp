// The Linux counting group: perf_event_open(2), group ioctls, one group read(2), mmap pages.
// Every system call goes through sys() (os/linux/sys.hpp) so tests can inject failures.
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "os/linux/aarch64/user_access.hpp"
#include "os/linux/sys.hpp"
#include "os/perf_events.hpp"

namespace glint::os {
namespace {

using linux_::sys;

struct EventCode {
    std::uint32_t type;
    std::uint64_t config;
};

EventCode code_of(Event event) {
    switch (event) {
        case Event::cycles:
            return {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES};
        case Event::instructions:
            return {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS};
        case Event::branches:
            return {PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS};
        case Event::branch_misses:
            return {PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES};
        case Event::cache_references:
            return {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES};
        case Event::cache_misses:
            return {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES};
        case Event::page_faults:
            return {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS};
        case Event::task_clock:
            return {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK};
        case Event::context_switches:
            return {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES};
        case Event::cpu_migrations:
            return {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS};
    }
    return {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY};
}

constexpr std::uint64_t kReadFormat =
    PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;

EventSpec spec_of(Event event) {
    const EventCode code = code_of(event);
    EventSpec spec;
    spec.type = code.type;
    spec.config = code.config;
    return spec;
}

perf_event_attr attr_of(const EventSpec& event, const GroupSpec& spec, bool leader) {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = event.type;
    attr.config = event.config;
    attr.config1 = event.config1;
    attr.config2 = event.config2;
    attr.read_format = kReadFormat;
    if (leader) attr.disabled = 1;  // the leader gates the group
    attr.exclude_hv = 1;
    if (spec.exclude_kernel || event.exclude_kernel) attr.exclude_kernel = 1;
    if (event.exclude_user) attr.exclude_user = 1;
    if (spec.inherit) attr.inherit = 1;
    return attr;
}

// Opens member `i` (of spec.events, or of spec.specs when given); with user access granted, a
// generic hardware member asks for it (arm64 rules: os/linux/aarch64/user_access.hpp) and
// `grant` records its counter width. spec.specs members open exactly as specified.
int open_member(std::size_t i, const GroupSpec& spec, int group_fd, UserAccessGrant& grant) {
    const bool generic = spec.specs.empty();
    perf_event_attr attr =
        attr_of(generic ? spec_of(spec.events[i]) : spec.specs[i], spec, group_fd < 0);
    int fd;
    if (generic && grant.mode == UserAccessGrant::Mode::requested && is_hardware(spec.events[i])) {
        linux_::UserAccessOpen o;
        do {
            o = linux_::open_user_access_event(attr, static_cast<pid_t>(spec.tid), -1, group_fd,
                                               PERF_FLAG_FD_CLOEXEC, spec.want_64bit);
        } while (o.fd < 0 && o.error == EINTR);
        grant.counter64[i] = o.counter64;
        grant.fell_back_to_32[i] = o.fell_back_to_32;
        errno = o.error;
        return o.fd;
    }
    do {
        fd = sys().perf_event_open(&attr, static_cast<pid_t>(spec.tid), -1, group_fd,
                                   PERF_FLAG_FD_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    return fd;
}

}  // namespace

PerfGroup::~PerfGroup() { close(); }

PerfGroup::PerfGroup(PerfGroup&& other) noexcept
    : spec_(std::move(other.spec_)),
      user_access_(std::move(other.user_access_)),
      fds_(std::exchange(other.fds_, {})),
      pages_(std::exchange(other.pages_, {})),
      page_size_(other.page_size_) {}

PerfGroup& PerfGroup::operator=(PerfGroup&& other) noexcept {
    if (this != &other) {
        close();
        spec_ = std::move(other.spec_);
        user_access_ = std::move(other.user_access_);
        fds_ = std::exchange(other.fds_, {});
        pages_ = std::exchange(other.pages_, {});
        page_size_ = other.page_size_;
    }
    return *this;
}

bool PerfGroup::open(const GroupSpec& spec, OpenFailure& failure) {
    close();
    if (spec.size() == 0 || spec.size() > kMaxGroupEvents) {
        std::fprintf(stderr, "glint: PerfGroup::open: %zu events (1..%zu allowed)\n", spec.size(),
                     kMaxGroupEvents);
        std::abort();
    }
    const bool generic = spec.specs.empty();
    UserAccessGrant grant;
    if (spec.user_access) grant = linux_::plan_user_access(spec.pmu_root);
    std::vector<int> fds;
    for (std::size_t i = 0; i < spec.size(); ++i) {
        const int fd = open_member(i, spec, fds.empty() ? -1 : fds[0], grant);
        if (fd < 0) {
            failure = OpenFailure{generic ? spec.events[i] : Event::cycles, errno, i};
            for (auto it = fds.rbegin(); it != fds.rend(); ++it) sys().close(*it);
            errno = failure.error;
            return false;
        }
        fds.push_back(fd);
    }
    spec_ = spec;
    user_access_ = std::move(grant);
    fds_ = std::move(fds);
    return true;
}

void PerfGroup::close() {
    unmap_pages();
    user_access_ = UserAccessGrant{};
    for (auto it = fds_.rbegin(); it != fds_.rend(); ++it) sys().close(*it);
    fds_.clear();
}

// ENABLE/DISABLE toggle the leader only: members are opened enabled and count exactly while
// their leader does (perf_event_open(2), "disabled"). Not PERF_IOC_FLAG_GROUP: on the 6.18
// kernel this was developed on, a group toggled with that flag stops counting a member after
// the first DISABLE whenever task-clock or cpu-clock is in the group (page-faults read 0 from
// the second bracket on), while toggling the leader alone counts every bracket.
bool PerfGroup::enable() { return linux_::ioctl_retry(leader_fd(), PERF_EVENT_IOC_ENABLE, 0) == 0; }
bool PerfGroup::disable() {
    return linux_::ioctl_retry(leader_fd(), PERF_EVENT_IOC_DISABLE, 0) == 0;
}
// RESET does need the flag: without it only the leader's count is zeroed.
bool PerfGroup::reset() {
    return linux_::ioctl_retry(leader_fd(), PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) == 0;
}

bool PerfGroup::read(GroupReading& out) const {
    out = GroupReading{};
    // { nr, time_enabled, time_running, value[nr] } (PERF_FORMAT_GROUP without IDs).
    std::uint64_t buffer[3 + kMaxGroupEvents];
    const std::size_t expected = (3 + fds_.size()) * sizeof(std::uint64_t);
    const ssize_t got = linux_::read_retry(leader_fd(), buffer, expected);
    if (got != static_cast<ssize_t>(expected) || buffer[0] != fds_.size()) return false;
    out.enabled = buffer[1];
    out.running = buffer[2];
    out.size = fds_.size();
    for (std::size_t i = 0; i < out.size; ++i) out.values[i] = buffer[3 + i];
    out.ok = true;
    return true;
}

int PerfGroup::map_pages() {
    if (!pages_.empty()) return 0;
    page_size_ = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<void*> pages;
    for (int fd : fds_) {
        void* page = sys().mmap(nullptr, page_size_, PROT_READ, MAP_SHARED, fd, 0);
        if (page == MAP_FAILED) {
            const int error = errno;
            for (void* p : pages) sys().munmap(p, page_size_);
            errno = error;
            return error;
        }
        pages.push_back(page);
    }
    pages_ = std::move(pages);
    return 0;
}

void PerfGroup::unmap_pages() {
    for (void* p : pages_) sys().munmap(p, page_size_);
    pages_.clear();
}

}  // namespace glint::os
