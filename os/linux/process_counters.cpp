// Tier-0 sources on Linux: getrusage(RUSAGE_SELF) and /proc/self/io, through the sys() seam.
#include <fcntl.h>
#include <sys/resource.h>

#include <cerrno>
#include <string>

#include "os/linux/proc_io.hpp"
#include "os/linux/sys.hpp"
#include "os/process_counters.hpp"

namespace glint::os {
namespace {

using linux_::sys;

void read_rusage(ProcessSnapshot& s) {
    rusage usage{};
    if (sys().getrusage(RUSAGE_SELF, &usage) != 0) return;
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

// The whole file from offset 0, by pread(2) until a short read, counting the calls (each one
// is a syscr) and the bytes (rchar). False with errno set on failure.
bool read_whole(int fd, std::string& text, ProcessSnapshot& s) {
    char buffer[1024];
    text.clear();
    while (true) {
        ssize_t n;
        do {
            n = sys().pread(fd, buffer, sizeof buffer, static_cast<off_t>(text.size()));
            ++s.own_reads;
        } while (n < 0 && errno == EINTR);
        if (n < 0) return false;
        text.append(buffer, static_cast<std::size_t>(n));
        s.own_bytes += static_cast<std::uint64_t>(n);
        if (static_cast<std::size_t>(n) < sizeof buffer) return true;
    }
}

}  // namespace

ProcessCounterReader::~ProcessCounterReader() {
    if (io_fd_ >= 0) sys().close(io_fd_);
}

ProcessSnapshot ProcessCounterReader::snapshot() {
    ProcessSnapshot s;
    read_rusage(s);
    if (io_fd_ < 0) io_fd_ = linux_::open_retry("/proc/self/io", O_RDONLY);
    if (io_fd_ < 0) {
        s.io_error = errno;
        return s;
    }
    std::string text;
    if (!read_whole(io_fd_, text, s)) {
        s.io_error = errno;
        sys().close(io_fd_);
        io_fd_ = -1;
        return s;
    }
    s.io_ok = true;
    linux_::parse_proc_io(text, s);
    return s;
}

}  // namespace glint::os
