// os/linux/sys.hpp: the one seam every Linux system call of glint goes through.
//
// Production code calls glint::os::linux_::sys().<call>(...). Tests replace the table with
// ScopedSys to inject EACCES, EPERM, ENOENT, EOPNOTSUPP, ENODEV, EINTR and short reads. EINTR
// is retried in one place: the retrying helpers below, never at call sites.
//
// Every entry returns what the system call returns (-1 with errno set on failure).
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>

struct perf_event_attr;
struct rusage;
struct timespec;

namespace glint::os::linux_ {

struct SysTable {
    int (*perf_event_open)(perf_event_attr* attr, pid_t pid, int cpu, int group_fd,
                           unsigned long flags);
    int (*ioctl)(int fd, unsigned long request, unsigned long arg);
    ssize_t (*read)(int fd, void* buf, std::size_t count);
    ssize_t (*write)(int fd, const void* buf, std::size_t count);
    int (*open)(const char* path, int flags, int mode);
    int (*close)(int fd);
    void* (*mmap)(void* addr, std::size_t length, int prot, int flags, int fd, off_t offset);
    int (*munmap)(void* addr, std::size_t length);
    int (*getrusage)(int who, rusage* usage);
    int (*access)(const char* path, int mode);
    ssize_t (*pread)(int fd, void* buf, std::size_t count, off_t offset);
    // Placement and NUMA (os/linux/cpu_affinity.cpp, thread_usage.cpp, numa.cpp). The
    // affinity masks are cpu_set_t-sized byte arrays; move_pages and set_mempolicy are the
    // raw system calls (no libnuma).
    int (*sched_getaffinity)(pid_t pid, std::size_t size, void* mask);
    int (*sched_setaffinity)(pid_t pid, std::size_t size, const void* mask);
    int (*sched_getcpu)();
    int (*clock_gettime)(int clock, timespec* ts);
    long (*move_pages)(int pid, unsigned long count, void** pages, const int* nodes, int* status,
                       int flags);
    long (*set_mempolicy)(int mode, const unsigned long* nodemask, unsigned long maxnode);
};

// The table in force (the real system calls unless a test replaced it).
const SysTable& sys();
// The real system calls.
const SysTable& real_sys();

// Replaces the table for the lifetime of the object (tests only; not thread-safe).
class ScopedSys {
  public:
    explicit ScopedSys(const SysTable& table);
    ~ScopedSys();
    ScopedSys(const ScopedSys&) = delete;
    ScopedSys& operator=(const ScopedSys&) = delete;

  private:
    const SysTable* previous_;
};

// read(2) retried on EINTR; returns bytes read or -1 with errno.
ssize_t read_retry(int fd, void* buf, std::size_t count);
// ioctl(2) retried on EINTR.
int ioctl_retry(int fd, unsigned long request, unsigned long arg);
// open(2) retried on EINTR.
int open_retry(const char* path, int flags, int mode = 0);

// Reads a whole small file (sysfs, procfs, tracefs) with raw open/read: such files report
// size 0. Returns false with errno set when it cannot be opened or read.
bool read_small_file(const std::string& path, std::string& out);

}  // namespace glint::os::linux_
