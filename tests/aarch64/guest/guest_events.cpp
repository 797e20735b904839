#include "guest_events.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "os/linux/sys.hpp"

namespace glint::guest {
namespace linux_ = os::linux_;

std::string guest_cpu() {
    const char* cpu = std::getenv("GLINT_GUEST_CPU");
    return cpu ? cpu : "unknown";
}

namespace {

constexpr std::uint64_t kReadFormat =
    PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;

std::int64_t fallback_read(const void* context, std::size_t slot) {
    return static_cast<const Events*>(context)->read_count(slot);
}

}  // namespace

Events::Events(const std::vector<EventSpec>& specs, const OpenOptions& options)
    : as_group_(options.as_group) {
    const linux_::Armv8Pmu pmu = linux_::find_armv8_pmu();
    if (!pmu.found) {
        error_ = pmu.reason;
        return;
    }
    const long page_size = ::sysconf(_SC_PAGESIZE);
    for (std::size_t i = 0; i < specs.size(); ++i) {
        perf_event_attr attr{};
        attr.size = sizeof attr;
        attr.type = pmu.type;
        attr.config = specs[i].config;
        attr.disabled = (!as_group_ || i == 0) ? 1 : 0;
        attr.exclude_kernel = specs[i].exclude_kernel ? 1 : 0;
        attr.exclude_hv = 1;
        attr.read_format = kReadFormat;
        attr.sample_period = specs[i].sample_period;
        const int group_fd = (as_group_ && i > 0) ? fds_[0] : -1;
        int fd;
        if (options.user_access) {
            const linux_::UserAccessOpen o = linux_::open_user_access_event(
                attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC, options.want_64bit);
            fd = o.fd;
            errno = o.error;
            counter64_.push_back(o.counter64);
            fell_back_to_32_.push_back(o.fell_back_to_32);
        } else {
            fd = linux_::sys().perf_event_open(&attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
            counter64_.push_back(false);
            fell_back_to_32_.push_back(false);
        }
        if (fd < 0) {
            error_ = "perf_event_open of event " + std::to_string(i) +
                     " failed: " + std::strerror(errno);
            return;
        }
        fds_.push_back(fd);
        void* page = linux_::sys().mmap(nullptr, static_cast<std::size_t>(page_size), PROT_READ,
                                        MAP_SHARED, fd, 0);
        if (page == MAP_FAILED) {
            error_ = std::string("mmap of the perf page failed: ") + std::strerror(errno);
            return;
        }
        pages_.push_back(static_cast<perf_event_mmap_page*>(page));
    }
    if (pages_.size() > linux_::Arm64GroupPages::kMaxSlots) return;  // no bracket for these
    group_pages_.count = pages_.size();
    for (std::size_t i = 0; i < pages_.size(); ++i) group_pages_.pages[i] = pages_[i];
    group_pages_.fallback = &fallback_read;
    group_pages_.fallback_context = this;
}

Events::~Events() {
    const long page_size = ::sysconf(_SC_PAGESIZE);
    for (perf_event_mmap_page* p : pages_)
        linux_::sys().munmap(p, static_cast<std::size_t>(page_size));
    for (auto it = fds_.rbegin(); it != fds_.rend(); ++it) linux_::sys().close(*it);
}

void Events::enable() {
    for (std::size_t i = 0; i < fds_.size(); ++i) {
        if (!as_group_ || i == 0)
            linux_::ioctl_retry(fds_[i], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
    }
}

void Events::disable() {
    for (std::size_t i = 0; i < fds_.size(); ++i) {
        if (!as_group_ || i == 0)
            linux_::ioctl_retry(fds_[i], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
    }
}

void Events::reset() {
    for (std::size_t i = 0; i < fds_.size(); ++i) {
        if (!as_group_ || i == 0)
            linux_::ioctl_retry(fds_[i], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
    }
}

SyscallReading Events::read_leader_of(std::size_t i) const {
    const int leader = as_group_ ? fds_[0] : fds_[i];
    std::uint64_t buf[3 + linux_::Arm64GroupPages::kMaxSlots * 2 + 16] = {};
    SyscallReading r;
    const ssize_t n = linux_::read_retry(leader, buf, sizeof buf);
    if (n < static_cast<ssize_t>(3 * sizeof(std::uint64_t))) std::abort();
    const std::uint64_t nr = buf[0];
    r.enabled = buf[1];
    r.running = buf[2];
    for (std::uint64_t k = 0; k < nr; ++k) r.counts.push_back(buf[3 + k]);
    return r;
}

std::int64_t Events::read_count(std::size_t i) const {
    const SyscallReading r = read_leader_of(i);
    return static_cast<std::int64_t>(r.counts[as_group_ ? i : 0]);
}

os::linux_::Arm64Layout Events::layout() const {
    std::uint32_t indices[linux_::Arm64GroupPages::kMaxSlots];
    unsigned widths[linux_::Arm64GroupPages::kMaxSlots];
    const std::size_t n = pages_.size();
    if (n > linux_::Arm64GroupPages::kMaxSlots) return {};
    for (std::size_t i = 0; i < n; ++i) {
        const linux_::PageCapabilities c = linux_::capabilities_of(pages_[i]);
        indices[i] = c.user_rdpmc ? c.index : 0;
        widths[i] = c.pmc_width;
    }
    return linux_::arm64_layout_of(indices, widths, n, linux_::Arm64GroupPages::kMaxSlots);
}

void read_group_for_hot(const void* context, std::int64_t* counts, std::size_t count,
                        std::int64_t& descheduled_ns) {
    const SyscallReading r = static_cast<const Events*>(context)->read_leader_of(0);
    for (std::size_t i = 0; i < count; ++i) counts[i] = static_cast<std::int64_t>(r.counts[i]);
    descheduled_ns = static_cast<std::int64_t>(r.enabled - r.running);
}

bool write_sysctl(const char* path, int value) {
    const int fd = linux_::open_retry(path, O_WRONLY);
    if (fd < 0) return false;
    const std::string text = std::to_string(value) + "\n";
    const bool ok =
        linux_::sys().write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    linux_::sys().close(fd);
    return ok;
}

ScopedUserAccess::ScopedUserAccess(int value) : previous_(linux_::read_perf_user_access().value) {
    write_sysctl(linux_::kPerfUserAccessPath, value);
}

ScopedUserAccess::~ScopedUserAccess() {
    if (previous_ >= 0) write_sysctl(linux_::kPerfUserAccessPath, previous_);
}

}  // namespace glint::guest
