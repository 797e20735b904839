// os/linux/proc_tasks.hpp: parsing a /proc/<pid>/task directory and its files. Internal to
// os/linux; pure but for read_task_dir, which reads the directory it is given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "os/process_tasks.hpp"

namespace glint::os::linux_ {

// schedstat's first field (time on a CPU, ns); nullopt when malformed.
std::optional<std::int64_t> parse_schedstat_ns(std::string_view text);
// stat's utime + stime (fields 14 and 15, after the parenthesised comm, which may hold spaces
// and parentheses) in ns, given the clock ticks a second; nullopt when malformed.
std::optional<std::int64_t> parse_stat_cpu_ns(std::string_view text, long ticks_per_second);

// The numeric entries of `dir` (pids or tids), unordered; nullopt when it cannot be listed.
std::optional<std::vector<long>> numeric_entries(const std::string& dir);

// The tasks under `dir` (one numeric subdirectory each, as /proc/self/task): ok false when
// `dir` cannot be listed; cpu_ns and settled_ns from schedstat (cpu_ns from stat without it); a
// task whose files vanished (it ended) keeps cpu_ns -1, name "".
TaskCensus read_task_dir(const std::string& dir);

// The pids of a /proc/<pid>/task/<tid>/children file ("12 34 "): those that parse.
std::vector<long> parse_pid_list(std::string_view text);
// stat's state (field 3) and ppid (field 4); nullopt when malformed.
struct StatHead {
    char state = '?';
    long ppid = 0;
};
std::optional<StatHead> parse_stat_head(std::string_view text);

// The children of process `self` under `proc` (as /proc): from each thread's children file,
// else (none readable) from every <proc>/<pid>/stat whose ppid is `self`. Each with its comm,
// whether a zombie, and stat's utime + stime; a child gone between listing and reading is left out.
ChildCensus read_children(const std::string& proc, long self);

// The CPU clock of process `pid` (process true) or thread `tid` (false), as
// clock_getcpuclockid and pthread_getcpuclockid make them, read through sys(): exact, a zombie's
// too; nullopt when it does not answer (gone, or another process's thread).
std::optional<std::int64_t> cpu_clock_ns(long id, bool process);

}  // namespace glint::os::linux_
