// Linux: this process's child processes not yet waited for (os/process_tasks.hpp), from
// /proc/self/task/<tid>/children, each one's CPU time from its process CPU clock.
#include <unistd.h>

#include <algorithm>
#include <string>

#include "os/linux/proc_tasks.hpp"
#include "os/linux/sys.hpp"
#include "os/linux/sysfs_text.hpp"

namespace glint::os::linux_ {

std::vector<long> parse_pid_list(std::string_view text) {
    std::vector<long> pids;
    long value = 0;
    bool digits = false;
    for (const char c : text) {
        if (c >= '0' && c <= '9' && value < 100'000'000) {
            value = value * 10 + (c - '0');
            digits = true;
            continue;
        }
        if (digits && (c == ' ' || c == '\n')) pids.push_back(value);
        value = 0;
        digits = false;
    }
    if (digits) pids.push_back(value);
    return pids;
}

std::optional<StatHead> parse_stat_head(std::string_view text) {
    const std::size_t close = text.rfind(')');
    if (close == std::string_view::npos || close + 4 > text.size() || text[close + 1] != ' ' ||
        text[close + 3] != ' ')
        return std::nullopt;
    StatHead head;
    head.state = text[close + 2];
    const std::vector<long> ppid =
        parse_pid_list(text.substr(close + 4, text.find(' ', close + 4) - (close + 4)));
    if (ppid.size() != 1) return std::nullopt;
    head.ppid = ppid[0];
    return head;
}

ChildCensus read_children(const std::string& proc, long self) {
    ChildCensus census;
    std::vector<std::pair<long, long>> found;  // pid, parent tid
    const std::string task_dir = proc + "/" + std::to_string(self) + "/task";
    for (const long tid : numeric_entries(task_dir).value_or(std::vector<long>{}))
        if (auto text = read_trimmed(task_dir + "/" + std::to_string(tid) + "/children")) {
            census.ok = true;
            for (const long pid : parse_pid_list(*text)) found.emplace_back(pid, tid);
        }
    if (!census.ok) {  // no children files (CONFIG_PROC_CHILDREN off): each process's ppid
        const auto pids = numeric_entries(proc);
        if (!pids) return census;
        census.ok = true;
        for (const long pid : *pids)
            if (auto stat = read_trimmed(proc + "/" + std::to_string(pid) + "/stat"))
                if (auto head = parse_stat_head(*stat); head && head->ppid == self)
                    found.emplace_back(pid, -1);
    }
    for (const auto& [pid, parent] : found) {
        const std::string base = proc + "/" + std::to_string(pid) + "/";
        const auto stat = read_trimmed(base + "stat");
        const auto head = stat ? parse_stat_head(*stat) : std::nullopt;
        if (!head) continue;  // reaped since it was listed
        ChildUsage child;
        child.pid = pid;
        child.parent_tid = parent;
        child.exited = head->state == 'Z';
        child.name = read_trimmed(base + "comm").value_or("");
        child.cpu_ns = parse_stat_cpu_ns(*stat, ::sysconf(_SC_CLK_TCK)).value_or(-1);
        census.children.push_back(std::move(child));
    }
    std::sort(census.children.begin(), census.children.end(),
              [](const ChildUsage& a, const ChildUsage& b) { return a.pid < b.pid; });
    return census;
}

}  // namespace glint::os::linux_

namespace glint::os {

// stat's utime + stime are whole clock ticks (a 1 ms child often reads 0): the child's process
// CPU clock (what clock_getcpuclockid makes of a pid) is exact, a zombie's too.
ChildCensus process_children() {
    ChildCensus census = linux_::read_children("/proc", static_cast<long>(::getpid()));
    for (auto& child : census.children) {
        if (const auto ns = linux_::cpu_clock_ns(child.pid, true)) child.cpu_ns = *ns;
    }
    return census;
}

}  // namespace glint::os
