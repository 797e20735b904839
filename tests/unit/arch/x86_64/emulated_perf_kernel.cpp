#include "emulated_perf_kernel.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>


namespace glint::test {
namespace {

EmulatedPerfKernel* g_kernel = nullptr;

int t_perf_event_open(perf_event_attr* attr, pid_t, int, int group_fd, unsigned long) {
    return g_kernel->do_perf_event_open(attr, group_fd);
}
int t_ioctl(int fd, unsigned long request, unsigned long arg) {
    return g_kernel->do_ioctl(fd, request, arg);
}
ssize_t t_read(int fd, void* buf, std::size_t count) { return g_kernel->do_read(fd, buf, count); }
int t_close(int fd) { return g_kernel->do_close(fd); }
void* t_mmap(void* addr, std::size_t length, int prot, int flags, int fd, off_t offset) {
    return g_kernel->do_mmap(addr, length, prot, flags, fd, offset);
}
int t_munmap(void* addr, std::size_t length) { return g_kernel->do_munmap(addr, length); }

const os::linux_::SysTable& real() { return os::linux_::real_sys(); }

bool kind_of(const perf_event_attr& attr, os::Event& kind) {
    using E = os::Event;
    if (attr.type == PERF_TYPE_HARDWARE) {
        switch (attr.config) {
            case PERF_COUNT_HW_CPU_CYCLES: kind = E::cycles; return true;
            case PERF_COUNT_HW_INSTRUCTIONS: kind = E::instructions; return true;
            case PERF_COUNT_HW_BRANCH_INSTRUCTIONS: kind = E::branches; return true;
            case PERF_COUNT_HW_BRANCH_MISSES: kind = E::branch_misses; return true;
            case PERF_COUNT_HW_CACHE_REFERENCES: kind = E::cache_references; return true;
            case PERF_COUNT_HW_CACHE_MISSES: kind = E::cache_misses; return true;
            default: return false;
        }
    }
    if (attr.type == PERF_TYPE_SOFTWARE) {
        switch (attr.config) {
            case PERF_COUNT_SW_PAGE_FAULTS: kind = E::page_faults; return true;
            case PERF_COUNT_SW_TASK_CLOCK: kind = E::task_clock; return true;
            case PERF_COUNT_SW_CONTEXT_SWITCHES: kind = E::context_switches; return true;
            case PERF_COUNT_SW_CPU_MIGRATIONS: kind = E::cpu_migrations; return true;
            default: return false;
        }
    }
    return false;
}

template <class T, class V>
void store(T& field, V value) {
    *static_cast<volatile T*>(&field) = static_cast<T>(value);
}

}  // namespace

EmulatedPerfKernel::EmulatedPerfKernel(EmulatedPmu& pmu) : pmu_(pmu) {
    table_ = real();
    table_.perf_event_open = t_perf_event_open;
    table_.ioctl = t_ioctl;
    table_.read = t_read;
    table_.close = t_close;
    table_.mmap = t_mmap;
    table_.munmap = t_munmap;
    g_kernel = this;
    scope_.emplace(table_);
}

EmulatedPerfKernel::~EmulatedPerfKernel() {
    scope_.reset();
    g_kernel = nullptr;
}

std::vector<int> EmulatedPerfKernel::hardware_events() const {
    std::vector<int> ids;
    for (const auto& [fd, e] : events_)
        if (e.hardware) ids.push_back(e.id);
    return ids;
}

void EmulatedPerfKernel::reassign(int id, std::uint32_t counter) {
    for (auto& [fd, e] : events_)
        if (e.id == id) e.counter = counter;
}

bool EmulatedPerfKernel::any_enabled() const {
    for (const auto& [leader, g] : groups_)
        if (g.enabled) return true;
    return false;
}

std::uint64_t EmulatedPerfKernel::enabled_ns(const Group& g) const {
    return g.enabled_ns + (g.enabled ? clock_ - g.since : 0);
}

std::uint64_t EmulatedPerfKernel::running_ns(const Group& g) const {
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(enabled_ns(g)) * ratio));
}

void EmulatedPerfKernel::tick(std::uint64_t ns) {
    clock_ += ns;
    if (!page_times) return;
    for (const auto& [leader, g] : groups_)
        if (g.enabled) publish_times(g);
}

void EmulatedPerfKernel::charge(const Group& g, const std::array<std::int64_t, 10>& per_kind,
                                std::int64_t times) {
    for (int fd : g.members) {
        const Event& e = events_.at(fd);
        const std::int64_t n = per_kind[static_cast<std::size_t>(e.kind)] * times;
        if (n != 0) pmu_.advance(e.id, n);
    }
}

void EmulatedPerfKernel::work(std::uint64_t iterations) {
    for (const auto& [leader, g] : groups_)
        if (g.enabled) charge(g, per_iteration, static_cast<std::int64_t>(iterations));
    tick(iterations * ns_per_iteration);
}

void EmulatedPerfKernel::publish_times(const Group& g) {
    for (int fd : g.members) {
        const Event& e = events_.at(fd);
        if (!e.hardware) continue;
        perf_event_mmap_page* page = pmu_.page(e.id);
        store(page->lock, page->lock + 1);
        store(page->capabilities, page->capabilities | (std::uint64_t{1} << 3));  // cap_user_time
        store(page->time_mult, 0u);
        store(page->time_shift, 0u);
        store(page->time_offset, 0u);
        store(page->time_enabled, enabled_ns(g));
        store(page->time_running, running_ns(g));
        store(page->lock, page->lock + 1);
    }
}

int EmulatedPerfKernel::do_perf_event_open(perf_event_attr* attr, int group_fd) {
    tick(ns_per_call);
    os::Event kind;
    if (!kind_of(*attr, kind)) {
        errno = EINVAL;
        return -1;
    }
    const bool hardware = attr->type == PERF_TYPE_HARDWARE;
    if (hardware && no_pmu) {
        errno = ENOENT;
        return -1;
    }
    if (group_fd >= 0 && !groups_.count(group_fd)) {
        errno = EBADF;
        return -1;
    }
    Event e;
    e.kind = kind;
    e.hardware = hardware;
    if (hardware) {
        e.counter = next_counter_++;
        e.id = pmu_.add_event(e.counter, kWrap48 - 1000 - 37 * e.counter);
        if (!grant_rdpmc) pmu_.set_user_rdpmc(e.id, false);
    } else {
        e.id = pmu_.add_event(100 + static_cast<std::uint32_t>(pmu_.events()));
        pmu_.set_user_rdpmc(e.id, false);
    }
    pmu_.deschedule(e.id);  // opened disabled: not on a counter
    const int fd = next_fd_++;
    e.leader = group_fd < 0 ? fd : group_fd;
    events_[fd] = e;
    groups_[e.leader].members.push_back(fd);
    if (group_fd < 0) last_group_.clear();
    last_group_.push_back(e.id);
    return fd;
}

int EmulatedPerfKernel::do_ioctl(int fd, unsigned long request, unsigned long arg) {
    auto it = events_.find(fd);
    if (it == events_.end()) return real().ioctl(fd, request, arg);
    ++ioctl_calls;
    tick(ns_per_call);
    Group& g = groups_.at(it->second.leader);
    switch (request) {
        case PERF_EVENT_IOC_ENABLE:
            if (g.enabled) return 0;
            g.enabled = true;
            g.since = clock_;
            for (int member : g.members) {
                const Event& e = events_.at(member);
                if (e.hardware && e.kind != never_scheduled)
                    pmu_.move(e.id, e.counter, kWrap48 - 500 - 11 * e.counter);
            }
            if (page_times) publish_times(g);
            charge(g, syscall_cost, 1);
            return 0;
        case PERF_EVENT_IOC_DISABLE:
            if (!g.enabled) return 0;
            charge(g, syscall_cost, 1);
            g.enabled_ns += clock_ - g.since;
            g.enabled = false;
            for (int member : g.members)
                if (events_.at(member).hardware) pmu_.deschedule(events_.at(member).id);
            return 0;
        case PERF_EVENT_IOC_RESET:
            for (int member : g.members) pmu_.reset(events_.at(member).id);
            return 0;
        default: errno = ENOTTY; return -1;
    }
}

ssize_t EmulatedPerfKernel::do_read(int fd, void* buf, std::size_t count) {
    auto it = events_.find(fd);
    if (it == events_.end()) return real().read(fd, buf, count);
    ++read_calls;
    tick(ns_per_call);
    if (fail_reads) {
        errno = EIO;
        return -1;
    }
    const Group& g = groups_.at(it->second.leader);
    const std::uint64_t enabled = enabled_ns(g);
    std::vector<std::uint64_t> data{g.members.size(), enabled, running_ns(g)};
    for (int member : g.members)
        data.push_back(static_cast<std::uint64_t>(pmu_.count(events_.at(member).id)));
    const std::size_t bytes = data.size() * sizeof(std::uint64_t);
    if (count < bytes) {
        errno = ENOSPC;
        return -1;
    }
    std::memcpy(buf, data.data(), bytes);
    return static_cast<ssize_t>(bytes);
}

int EmulatedPerfKernel::do_close(int fd) {
    auto it = events_.find(fd);
    if (it == events_.end()) return real().close(fd);
    auto& members = groups_.at(it->second.leader).members;
    std::erase(members, fd);
    if (members.empty()) groups_.erase(it->second.leader);
    events_.erase(it);
    return 0;
}

void* EmulatedPerfKernel::do_mmap(void* addr, std::size_t length, int prot, int flags, int fd,
                                  off_t offset) {
    auto it = events_.find(fd);
    if (it == events_.end()) return real().mmap(addr, length, prot, flags, fd, offset);
    return pmu_.page(it->second.id);
}

int EmulatedPerfKernel::do_munmap(void* addr, std::size_t length) {
    for (int e = 0; e < pmu_.events(); ++e)
        if (addr == pmu_.page(e)) return 0;  // the rig owns its pages
    return real().munmap(addr, length);
}

}  // namespace glint::test
