// The fake perf kernel's seam, fd table and files, and its window model
// (support/fake_perf_kernel.hpp). The emulated-PMU model is fake_perf_kernel_linux_x86_64.cpp.
#include "support/fake_perf_kernel.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>

namespace glint::test {
namespace {

FakePerfKernel* g_fake = nullptr;

int t_perf_event_open(perf_event_attr* attr, pid_t pid, int, int group_fd, unsigned long) {
    return g_fake->do_perf_event_open(attr, group_fd, pid);
}
int t_ioctl(int fd, unsigned long request, unsigned long arg) {
    return g_fake->do_ioctl(fd, request, arg);
}
ssize_t t_read(int fd, void* buf, std::size_t count) { return g_fake->do_read(fd, buf, count); }
int t_open(const char* path, int flags, int mode) { return g_fake->do_open(path, flags, mode); }
int t_close(int fd) { return g_fake->do_close(fd); }
void* t_mmap(void* addr, std::size_t length, int prot, int flags, int fd, off_t offset) {
    return g_fake->do_mmap(addr, length, prot, flags, fd, offset);
}
int t_munmap(void* addr, std::size_t length) { return g_fake->do_munmap(addr, length); }
int t_access(const char* path, int mode) { return g_fake->do_access(path, mode); }

const os::linux_::SysTable& real() { return os::linux_::real_sys(); }

std::uint64_t scaled(std::uint64_t value, double ratio) {
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(value) * ratio));
}

}  // namespace

// ---- the window model ----

class FakePerfKernel::WindowModel final : public FakePerfKernel::Model {
  public:
    explicit WindowModel(FakePerfKernel& kernel) : k_(kernel) {}

    int open(Event&) override { return 0; }
    void enable(Group&) override {}
    void disable(Group& g) override {  // closes the window
        const double r = k_.ratio(g.members.size());
        const std::uint64_t window = k_.window_ns + g.pending;
        g.time_enabled += window;
        g.time_running += scaled(window, r);
        for (int fd : g.members) k_.events_[fd].value += scaled(k_.apparatus_count + g.pending, r);
        g.pending = 0;
    }
    void reset(Group& g) override {
        for (int member : g.members) k_.events_[member].value = 0;
    }
    void work(std::uint64_t units) override {  // one thread's view: every enabled group
        for (auto& [leader, g] : k_.groups_)
            if (g.enabled) g.pending += units;
    }
    void read(const Group& g, std::vector<std::uint64_t>& data) override {
        data.push_back(g.time_enabled);
        data.push_back(g.time_running);
        for (int member : g.members) data.push_back(k_.events_[member].value);
    }
    void* page(const Event&) override { return page_; }
    bool owns_page(const void* addr) const override { return addr == page_; }

  private:
    FakePerfKernel& k_;
    alignas(4096) unsigned char page_[4096] = {};
};

FakePerfKernel::FakePerfKernel() : model_(std::make_unique<WindowModel>(*this)) { install(); }

// ---- the seam, shared by both models ----

void FakePerfKernel::install() {
    table_ = real();
    table_.perf_event_open = t_perf_event_open;
    table_.ioctl = t_ioctl;
    table_.read = t_read;
    table_.open = t_open;
    table_.close = t_close;
    table_.mmap = t_mmap;
    table_.munmap = t_munmap;
    table_.access = t_access;
    g_fake = this;
    scope_.emplace(table_);
}

FakePerfKernel::~FakePerfKernel() {
    scope_.reset();
    g_fake = nullptr;
}

pid_t FakePerfKernel::caller() {
    thread_local pid_t tid = 0;
    if (tid == 0) tid = static_cast<pid_t>(syscall(SYS_gettid));
    return tid;
}

int FakePerfKernel::live_fds() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<int>(events_.size());
}

bool FakePerfKernel::any_enabled() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [leader, group] : groups_)
        if (group.enabled) return true;
    return false;
}

void FakePerfKernel::work(std::uint64_t units) {
    const std::lock_guard<std::mutex> lock(mutex_);
    model_->work(units);
}

void FakePerfKernel::reassign(int id, std::uint32_t counter) {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [fd, e] : events_)
        if (e.id == id) e.counter = counter;
}

int FakePerfKernel::do_perf_event_open(perf_event_attr* attr, int group_fd, pid_t pid) {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++open_calls;
    model_->call();
    if (eintr_opens > 0) {
        --eintr_opens;
        errno = EINTR;
        return -1;
    }
    int refusal = refuse_all_errno;
    if (!refusal && refuse_kernel_errno && !attr->exclude_kernel) refusal = refuse_kernel_errno;
    if (!refusal && attr->type == PERF_TYPE_HARDWARE) {
        if (hardware_errno) refusal = hardware_errno;
        auto it = hardware_config_errno.find(attr->config);
        if (!refusal && it != hardware_config_errno.end()) refusal = it->second;
        if (!refusal && attr->precise_ip > max_precise_ip) refusal = EOPNOTSUPP;
    }
    if (refusal) {
        errno = refusal;
        return -1;
    }
    if (group_fd >= 0 && !groups_.count(group_fd)) {
        errno = EBADF;
        return -1;
    }
    Event e;
    e.attr = *attr;
    e.leader = group_fd < 0 ? next_fd_ : group_fd;
    e.owner = pid > 0 ? pid : caller();
    if (group_fd >= 0 && groups_[group_fd].owner != e.owner) {  // one task's context per group
        errno = EINVAL;
        return -1;
    }
    if (const int error = model_->open(e); error != 0) {
        errno = error;
        return -1;
    }
    const int fd = next_fd_++;
    events_[fd] = e;
    groups_[e.leader].members.push_back(fd);
    groups_[e.leader].owner = e.owner;
    opened.push_back(*attr);
    return fd;
}

int FakePerfKernel::do_ioctl(int fd, unsigned long request, unsigned long arg) {
    std::unique_lock<std::mutex> lock(mutex_);
    auto ev = events_.find(fd);
    if (ev == events_.end()) {
        lock.unlock();
        return real().ioctl(fd, request, arg);
    }
    model_->call();
    if (eintr_ioctls > 0) {
        --eintr_ioctls;
        errno = EINTR;
        return -1;
    }
    ioctls.emplace_back(request, arg);
    Group& group = groups_[ev->second.leader];
    switch (request) {
        case PERF_EVENT_IOC_ENABLE:
            ++enable_calls;
            if (enable_errno != 0) {
                errno = enable_errno;
                return -1;
            }
            if (!group.enabled) {
                group.enabled = true;
                model_->enable(group);
            }
            return 0;
        case PERF_EVENT_IOC_DISABLE:
            ++disable_calls;
            if (group.enabled) {
                model_->disable(group);
                group.enabled = false;
            }
            return 0;
        case PERF_EVENT_IOC_RESET:
            ++reset_calls;
            model_->reset(group);
            return 0;
        default:
            errno = ENOTTY;
            return -1;
    }
}

ssize_t FakePerfKernel::do_read(int fd, void* buf, std::size_t count) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (auto file = files_open_.find(fd); file != files_open_.end()) {
        OpenFile& f = file->second;
        const std::size_t n = std::min(count, f.content.size() - f.offset);
        std::memcpy(buf, f.content.data() + f.offset, n);
        f.offset += n;
        return static_cast<ssize_t>(n);
    }
    auto ev = events_.find(fd);
    if (ev == events_.end()) {
        lock.unlock();
        return real().read(fd, buf, count);
    }
    model_->call();
    if (eintr_reads > 0) {
        --eintr_reads;
        errno = EINTR;
        return -1;
    }
    ++read_calls;
    ThreadCalls& mine = by_thread[caller()];
    ++mine.reads;
    mine.traps_at_reads.push_back(model_->traps_of(caller()));
    if (read_errno != 0) {
        errno = read_errno;
        return -1;
    }
    const Group& group = groups_[ev->second.leader];
    std::vector<std::uint64_t> data{group.members.size()};
    model_->read(group, data);
    std::size_t bytes = data.size() * sizeof(std::uint64_t);
    if (count < bytes) {
        errno = ENOSPC;
        return -1;
    }
    if (short_reads_after >= 0 && read_calls > short_reads_after) bytes -= sizeof(std::uint64_t);
    std::memcpy(buf, data.data(), bytes);
    return static_cast<ssize_t>(bytes);
}

int FakePerfKernel::do_open(const char* path, int flags, int mode) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (auto failure = file_errno.find(path); failure != file_errno.end()) {
        errno = failure->second;
        return -1;
    }
    if (auto file = files.find(path); file != files.end()) {
        const int fd = next_file_fd_++;
        files_open_[fd] = OpenFile{file->second};
        return fd;
    }
    lock.unlock();
    return real().open(path, flags, mode);
}

int FakePerfKernel::do_close(int fd) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (files_open_.erase(fd)) return 0;
    auto ev = events_.find(fd);
    if (ev == events_.end()) {
        lock.unlock();
        return real().close(fd);
    }
    model_->close(ev->second);
    auto& members = groups_[ev->second.leader].members;
    std::erase(members, fd);
    if (members.empty()) groups_.erase(ev->second.leader);
    events_.erase(ev);
    return 0;
}

void* FakePerfKernel::do_mmap(void* addr, std::size_t length, int prot, int flags, int fd,
                              off_t offset) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (auto ev = events_.find(fd); ev != events_.end()) {
        if (mmap_limit_bytes != 0 && length > mmap_limit_bytes) {
            errno = EPERM;
            return MAP_FAILED;
        }
        return model_->page(ev->second);
    }
    lock.unlock();
    return real().mmap(addr, length, prot, flags, fd, offset);
}

int FakePerfKernel::do_munmap(void* addr, std::size_t length) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (model_->owns_page(addr)) return 0;
    lock.unlock();
    return real().munmap(addr, length);
}

int FakePerfKernel::do_access(const char* path, int mode) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (access) return access(path, mode);
    lock.unlock();
    return real().access(path, mode);
}

}  // namespace glint::test
