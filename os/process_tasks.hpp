// os/process_tasks.hpp: the threads (tasks) of this process, each with its name and the CPU time
// it has used: who else ran while one thread counted. Read around counting passes, never inside
// a timed window. A thread that started and ended between two reads is in neither.
//
// Linux (os/linux/process_tasks.cpp): the tids and names of /proc/self/task/<tid>/comm; CPU time
// from each thread's CPU clock (clock_gettime), else schedstat's first field (ns), else stat's
// utime + stime (clock ticks). Other systems: unknown (ok false).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace glint::os {

struct TaskUsage {
    long tid = 0;
    std::string name;          // comm (up to 15 bytes: what pthread_setname_np set), "" unreadable
    std::int64_t cpu_ns = -1;  // CPU time the thread has used, user + system; -1 unreadable
    // What the process's CPU clock holds of it (schedstat: up to a scheduler tick behind cpu_ns
    // while it runs, which the process clock is too); -1 unreadable.
    std::int64_t settled_ns = -1;
};

struct TaskCensus {
    bool ok = false;               // the task directory could be listed
    std::vector<TaskUsage> tasks;  // by tid, ascending
};

// This process's threads now.
TaskCensus process_tasks();

// process_children: this process's child processes not yet waited for, running or ended
// (zombies), each with the CPU time it has used: what neither RUSAGE_CHILDREN (waited-for
// children only) nor an inherited counter (a child's counts join at its exit) has seen yet.
// Linux: /proc/self/task/<tid>/children for each thread (else /proc/<pid>/stat's ppid); each
// one's process CPU clock, else its stat's utime + stime. Other systems: unknown (ok false).
struct ChildUsage {
    long pid = 0;
    std::string name;  // comm, "" unreadable
    std::int64_t cpu_ns =
        -1;                // CPU time it has used, all its threads, user + system; -1 unreadable
    bool exited = false;   // a zombie: it ended and no one has waited for it
    long parent_tid = -1;  // the thread of this process whose child it is; -1 not known
};

struct ChildCensus {
    bool ok = false;                   // the children could be listed
    std::vector<ChildUsage> children;  // by pid, ascending
};

// This process's child processes not yet waited for, now.
ChildCensus process_children();

}  // namespace glint::os
