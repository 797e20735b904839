// Linux: the process's threads from /proc/self/task, each one's CPU time from its own CPU
// clock where it answers (os/process_tasks.hpp).
#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "os/linux/proc_tasks.hpp"
#include "os/linux/sys.hpp"
#include "os/linux/sysfs_text.hpp"

namespace glint::os::linux_ {
namespace {

std::optional<std::int64_t> leading_integer(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size() && text[i] == ' ') ++i;
    std::int64_t value = 0;
    const std::size_t start = i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (value > (INT64_MAX - 9) / 10) return std::nullopt;
        value = value * 10 + (text[i] - '0');
    }
    if (i == start || (i < text.size() && text[i] != ' ' && text[i] != '\n')) return std::nullopt;
    return value;
}

}  // namespace

std::optional<std::int64_t> parse_schedstat_ns(std::string_view text) {
    return leading_integer(text);
}

std::optional<std::int64_t> parse_stat_cpu_ns(std::string_view text, long ticks_per_second) {
    const std::size_t close = text.rfind(')');
    if (close == std::string_view::npos || ticks_per_second <= 0) return std::nullopt;
    std::string_view rest = text.substr(close + 1);
    // After the comm: state is field 3, so utime (14) and stime (15) are the 12th and 13th.
    std::optional<std::int64_t> utime, stime;
    for (int field = 3; field <= 15; ++field) {
        while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
        const std::size_t end = std::min(rest.find(' '), rest.size());
        if (end == 0) return std::nullopt;
        if (field == 14) utime = leading_integer(rest.substr(0, end));
        if (field == 15) stime = leading_integer(rest.substr(0, end));
        rest.remove_prefix(end);
    }
    if (!utime || !stime) return std::nullopt;
    return (*utime + *stime) * (1'000'000'000 / ticks_per_second);
}

std::optional<std::vector<long>> numeric_entries(const std::string& dir) {
    DIR* d = ::opendir(dir.c_str());
    if (!d) return std::nullopt;
    std::vector<long> ids;
    while (const dirent* entry = ::readdir(d)) {
        char* end = nullptr;
        const long id = std::strtol(entry->d_name, &end, 10);
        if (entry->d_name[0] >= '0' && entry->d_name[0] <= '9' && *end == '\0') ids.push_back(id);
    }
    ::closedir(d);
    return ids;
}

TaskCensus read_task_dir(const std::string& dir) {
    TaskCensus census;
    const auto tids = numeric_entries(dir);
    if (!tids) return census;
    census.ok = true;
    for (const long tid : *tids) {
        TaskUsage task;
        task.tid = tid;
        const std::string base = dir + "/" + std::to_string(tid) + "/";
        if (auto comm = read_trimmed(base + "comm")) task.name = std::move(*comm);
        if (auto sched = read_trimmed(base + "schedstat"); sched && parse_schedstat_ns(*sched))
            task.cpu_ns = task.settled_ns = *parse_schedstat_ns(*sched);
        else if (auto stat = read_trimmed(base + "stat"))
            task.cpu_ns = parse_stat_cpu_ns(*stat, ::sysconf(_SC_CLK_TCK)).value_or(-1);
        census.tasks.push_back(std::move(task));
    }
    std::sort(census.tasks.begin(), census.tasks.end(),
              [](const TaskUsage& a, const TaskUsage& b) { return a.tid < b.tid; });
    return census;
}

std::optional<std::int64_t> cpu_clock_ns(long id, bool process) {
    // The kernel's CPUCLOCK encoding: ~id << 3, then the clock (SCHED) and, for a thread,
    // PERTHREAD.
    const auto clock =
        static_cast<clockid_t>((~static_cast<unsigned>(id) << 3) | (process ? 2 : 6));
    timespec ts{};
    if (sys().clock_gettime(clock, &ts) != 0) return std::nullopt;
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace glint::os::linux_

namespace glint::os {

// A thread's own CPU clock (what pthread_getcpuclockid makes of a tid): exact for a thread
// running now, where schedstat lags up to a scheduler tick.
TaskCensus process_tasks() {
    TaskCensus census = linux_::read_task_dir("/proc/self/task");
    for (auto& task : census.tasks)
        if (const auto ns = linux_::cpu_clock_ns(task.tid, false)) task.cpu_ns = *ns;
    return census;
}

}  // namespace glint::os
