#include "os/linux/sys.hpp"

#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>

namespace glint::os::linux_ {
namespace {

int real_perf_event_open(perf_event_attr* attr, pid_t pid, int cpu, int group_fd,
                         unsigned long flags) {
    return static_cast<int>(::syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags));
}
int real_ioctl(int fd, unsigned long request, unsigned long arg) {
    return ::ioctl(fd, request, arg);
}
ssize_t real_read(int fd, void* buf, std::size_t count) { return ::read(fd, buf, count); }
ssize_t real_write(int fd, const void* buf, std::size_t count) { return ::write(fd, buf, count); }
int real_open(const char* path, int flags, int mode) { return ::open(path, flags, mode); }
int real_close(int fd) { return ::close(fd); }
void* real_mmap(void* addr, std::size_t length, int prot, int flags, int fd, off_t offset) {
    return ::mmap(addr, length, prot, flags, fd, offset);
}
int real_munmap(void* addr, std::size_t length) { return ::munmap(addr, length); }
int real_getrusage(int who, rusage* usage) { return ::getrusage(who, usage); }
int real_access(const char* path, int mode) { return ::access(path, mode); }
ssize_t real_pread(int fd, void* buf, std::size_t count, off_t offset) {
    return ::pread(fd, buf, count, offset);
}

int real_sched_getaffinity(pid_t pid, std::size_t size, void* mask) {
    return ::sched_getaffinity(pid, size, static_cast<cpu_set_t*>(mask));
}
int real_sched_setaffinity(pid_t pid, std::size_t size, const void* mask) {
    return ::sched_setaffinity(pid, size, static_cast<const cpu_set_t*>(mask));
}
int real_sched_getcpu() { return ::sched_getcpu(); }
int real_clock_gettime(int clock, timespec* ts) { return ::clock_gettime(clock, ts); }
long real_move_pages(int pid, unsigned long count, void** pages, const int* nodes, int* status,
                     int flags) {
    return ::syscall(SYS_move_pages, pid, count, pages, nodes, status, flags);
}
long real_set_mempolicy(int mode, const unsigned long* nodemask, unsigned long maxnode) {
    return ::syscall(SYS_set_mempolicy, mode, nodemask, maxnode);
}

const SysTable kReal = {real_perf_event_open,
                        real_ioctl,
                        real_read,
                        real_write,
                        real_open,
                        real_close,
                        real_mmap,
                        real_munmap,
                        real_getrusage,
                        real_access,
                        real_pread,
                        real_sched_getaffinity,
                        real_sched_setaffinity,
                        real_sched_getcpu,
                        real_clock_gettime,
                        real_move_pages,
                        real_set_mempolicy};
const SysTable* g_current = &kReal;

}  // namespace

const SysTable& sys() { return *g_current; }
const SysTable& real_sys() { return kReal; }

ScopedSys::ScopedSys(const SysTable& table) : previous_(g_current) { g_current = &table; }
ScopedSys::~ScopedSys() { g_current = previous_; }

ssize_t read_retry(int fd, void* buf, std::size_t count) {
    ssize_t n;
    do {
        n = sys().read(fd, buf, count);
    } while (n < 0 && errno == EINTR);
    return n;
}

int ioctl_retry(int fd, unsigned long request, unsigned long arg) {
    int rc;
    do {
        rc = sys().ioctl(fd, request, arg);
    } while (rc < 0 && errno == EINTR);
    return rc;
}

int open_retry(const char* path, int flags, int mode) {
    int fd;
    do {
        fd = sys().open(path, flags | O_CLOEXEC, mode);
    } while (fd < 0 && errno == EINTR);
    return fd;
}

bool read_small_file(const std::string& path, std::string& out) {
    int fd = open_retry(path.c_str(), O_RDONLY);
    if (fd < 0) return false;
    out.clear();
    char buf[4096];
    while (true) {
        ssize_t n = read_retry(fd, buf, sizeof buf);
        if (n < 0) {
            int saved = errno;
            sys().close(fd);
            errno = saved;
            return false;
        }
        if (n == 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    sys().close(fd);
    return true;
}

}  // namespace glint::os::linux_
