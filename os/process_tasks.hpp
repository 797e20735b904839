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
    std::string name;         // comm (up to 15 bytes: what pthread_setname_np set), "" unreadable
    std::int64_t cpu_ns = -1; // CPU time the thread has used, user + system; -1 unreadable
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

}  // namespace glint::os
