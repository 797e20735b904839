// os/process_counters.hpp: the unprivileged per-process counters behind tier 0.
//
// Linux (os/linux/process_counters.cpp): getrusage(RUSAGE_SELF) for page faults and context
// switches, /proc/self/io for syscall counts and bytes (read with raw open/read: procfs reports
// size 0). Both are process-wide (every thread of the process), cumulative since it started.
// A field the kernel does not provide (/proc/self/io needs CONFIG_TASK_IO_ACCOUNTING and
// CONFIG_TASK_XACCT) is absent, never 0. Other systems (os/other/) have no source at all.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace glint::os {

enum class ProcessCounter : std::uint8_t {
    minflt,       // ru_minflt: page faults served without I/O
    majflt,       // ru_majflt: page faults that needed I/O
    nvcsw,        // ru_nvcsw: voluntary context switches (blocked, e.g. on I/O)
    nivcsw,       // ru_nivcsw: involuntary context switches (preempted)
    syscr,        // /proc/self/io: read-family system calls
    syscw,        // write-family system calls
    rchar,        // bytes through read-family calls (page cache, pipes, procfs, ... included)
    wchar,        // bytes through write-family calls
    read_bytes,   // bytes the block layer fetched for this process
    write_bytes,  // bytes this process caused to be sent to the block layer
};
inline constexpr std::size_t kProcessCounters = 10;

// The kernel's spelling: "ru_minflt", "syscr", "read_bytes", ...
constexpr std::string_view process_counter_name(ProcessCounter counter) {
    switch (counter) {
        case ProcessCounter::minflt:
            return "ru_minflt";
        case ProcessCounter::majflt:
            return "ru_majflt";
        case ProcessCounter::nvcsw:
            return "ru_nvcsw";
        case ProcessCounter::nivcsw:
            return "ru_nivcsw";
        case ProcessCounter::syscr:
            return "syscr";
        case ProcessCounter::syscw:
            return "syscw";
        case ProcessCounter::rchar:
            return "rchar";
        case ProcessCounter::wchar:
            return "wchar";
        case ProcessCounter::read_bytes:
            return "read_bytes";
        case ProcessCounter::write_bytes:
            return "write_bytes";
    }
    return "?";
}

struct ProcessSnapshot {
    std::array<std::uint64_t, kProcessCounters> values{};
    std::array<bool, kProcessCounters> present{};  // false: this kernel does not provide it
    bool rusage_ok = false;                        // getrusage answered
    bool io_ok = false;                            // /proc/self/io was read
    int io_error = 0;                              // errno when it was not
    // What taking this snapshot adds to /proc/self/io once it returns: the read(2) calls it made
    // on the file (syscr) and the bytes they returned (rchar). The kernel accounts a read after
    // generating its text, so the snapshot's values exclude this and the next snapshot's include
    // it.
    std::uint64_t own_reads = 0;
    std::uint64_t own_bytes = 0;

    bool has(ProcessCounter c) const { return present[static_cast<std::size_t>(c)]; }
    std::uint64_t value(ProcessCounter c) const { return values[static_cast<std::size_t>(c)]; }
};

// Takes snapshots of every counter: a getrusage and one pread(2) at offset 0 of
// /proc/self/io, kept open between snapshots (procfs regenerates the text on a read at offset
// 0; the file reports size 0, so it is read until a short read). Its own reads are reported in
// own_reads/own_bytes so callers can remove them exactly; whatever else a snapshot perturbs (a
// fault, a context switch) callers measure and subtract. A failed read closes the file; the
// next snapshot opens it again. Not thread-safe; one reader per user.
class ProcessCounterReader {
  public:
    ProcessCounterReader() = default;
    ~ProcessCounterReader();
    ProcessCounterReader(const ProcessCounterReader&) = delete;
    ProcessCounterReader& operator=(const ProcessCounterReader&) = delete;

    ProcessSnapshot snapshot();

  private:
    int io_fd_ = -1;
};

}  // namespace glint::os
