// Tier-0 sources on Linux: getrusage(RUSAGE_SELF) and /proc/self/io, through the sys() seam.
#include <fcntl.h>
#include <sys/resource.h>

#include <cerrno>
#include <string>

#include "os/linux/proc_io.hpp"
#include "os/linux/sys.hpp"
#include "os/process_counters.hpp"

namespace glint::os {

ProcessSnapshot snapshot_process_counters() {
    ProcessSnapshot s;
    rusage usage{};
    if (linux_::sys().getrusage(RUSAGE_SELF, &usage) == 0) {
        s.rusage_ok = true;
        auto set = [&](ProcessCounter c, long value) {
            s.values[static_cast<std::size_t>(c)] = static_cast<std::uint64_t>(value);
            s.present[static_cast<std::size_t>(c)] = true;
        };
        set(ProcessCounter::minflt, usage.ru_minflt);
        set(ProcessCounter::majflt, usage.ru_majflt);
        set(ProcessCounter::nvcsw, usage.ru_nvcsw);
        set(ProcessCounter::nivcsw, usage.ru_nivcsw);
    }
    // read_small_file's loop, counting its own read(2) calls (each one is a syscr).
    const int fd = linux_::open_retry("/proc/self/io", O_RDONLY);
    if (fd < 0) {
        s.io_error = errno;
        return s;
    }
    char buffer[1024];
    std::string text;
    while (true) {
        ssize_t n;
        do {
            n = linux_::sys().read(fd, buffer, sizeof buffer);
            ++s.own_reads;
        } while (n < 0 && errno == EINTR);
        if (n < 0) {
            s.io_error = errno;
            linux_::sys().close(fd);
            return s;
        }
        if (n == 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        s.own_bytes += static_cast<std::uint64_t>(n);
    }
    linux_::sys().close(fd);
    s.io_ok = true;
    linux_::parse_proc_io(text, s);
    return s;
}

}  // namespace glint::os
