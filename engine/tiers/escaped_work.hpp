// engine/tiers/escaped_work.hpp: the work a one-thread row's counters did not see, measured
// around its counting passes: other threads' CPU time (the process's clock less the measuring
// thread's), waited-for children's, and which threads they were (os/process_tasks.hpp). What
// rows[].threadCoverage says of such a row (docs/threads.md, "Threads glint did not start").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "os/process_tasks.hpp"

namespace glint::engine {

// The threads alive when the counters opened: inherit does not follow them (only threads the
// opening thread creates afterwards); under it the perf tier opens a group on each
// (preexisting_threads.hpp). ok false: not known.
struct ThreadsAtOpen {
    bool ok = false;
    std::vector<long> tids;  // ascending
};
ThreadsAtOpen threads_now();

// One thread that used CPU time during the passes, other than the measuring thread.
struct EscapedThread {
    long tid = 0;
    std::string name;
    double cpu_ns = 0;        // during the passes (all of it when the thread started within them)
    int existed_before = -1;  // alive when the counters opened: 1, 0, or -1 not known
};

// The threads of `after` (but `self`) whose CPU time grew since `before`, or which are new
// there; the most CPU first. A thread that ended before `after` is not there to name.
std::vector<EscapedThread> escaped_threads(const os::TaskCensus& before,
                                           const os::TaskCensus& after, long self,
                                           const ThreadsAtOpen& at_open);

// One child process not yet waited for when the passes ended that used CPU time during them:
// in no count (RUSAGE_CHILDREN has it once waited for, an inherited counter once it exits).
struct UnwaitedChild {
    long pid = 0;
    std::string name;
    double cpu_ns = 0;    // during the passes (all of it when it started within them)
    bool exited = false;  // ended, not waited for (a zombie)
};

// The children of `after` whose CPU time grew since `before`, or which are new there; the most
// CPU first. Under `inherit`, one that exited is left out when its parent thread inherits the
// counters (`self`, or a thread `at_open` knows was not alive at the open): its counts joined
// at its exit. None when either census failed.
std::vector<UnwaitedChild> unwaited_children(const os::ChildCensus& before,
                                             const os::ChildCensus& after, bool inherit, long self,
                                             const ThreadsAtOpen& at_open);

// Begun on the measuring thread just before a row's counting passes; coverage() after them.
class EscapedWork {
  public:
    EscapedWork(const ThreadsAtOpen& at_open, bool inherit);

    // Null when nothing escaped beyond the bound (5% of the measuring thread's CPU time, and
    // 200 us); else rows[].threadCoverage: {threads 1, counted 1, missed null, otherCpuNs,
    // childCpuNs, escaped [{tid, name, cpuNs, existedBefore}], unwaitedCpuNs, unwaitedChildren
    // [{pid, name, cpuNs, exited}] (null: not known), missedWhy}. Without inherit: all other
    // threads and waited-for children; either way the children not waited for. Under inherit:
    // the threads alive at the open only, but those the perf tier counted (`preexisting`:
    // PreexistingThreads::coverage(), null none). When they ran beyond the bound, or some could
    // not be counted, the row says so too: threads 1 + k + m, counted 1 + k, missed m (null when
    // more escaped), preExisting [{tid, name}], preExistingMissed [{tid, name, why}],
    // countedCpuNs (theirs in the passes).
    Json coverage(const Json& preexisting = Json()) const;

  private:
    const ThreadsAtOpen& at_open_;
    bool inherit_;
    std::int64_t process_, thread_, children_;
    long self_;
    os::TaskCensus before_;
    os::ChildCensus children_before_;
};

}  // namespace glint::engine
