#include "engine/tiers/escaped_work.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "os/process.hpp"
#include "os/thread_usage.hpp"

namespace glint::engine {
namespace {

constexpr double kNamedShare =
    0.01;  // threadCoverage.escaped: threads with this share of otherCpuNs

Json escaped_json(const std::vector<EscapedThread>& threads) {
    Json list = Json::array();
    for (const auto& t : threads) {
        Json j = Json::object();
        j["tid"] = static_cast<double>(t.tid);
        j["name"] = t.name;
        j["cpuNs"] = t.cpu_ns;
        j["existedBefore"] = t.existed_before < 0 ? Json() : Json(t.existed_before == 1);
        list.push_back(std::move(j));
    }
    return list;
}

// What the process's CPU clock had not yet taken of the threads running when `census` was
// read (each one's own clock less its settled figure: up to a scheduler tick each).
std::int64_t unsettled(const os::TaskCensus& census, long self) {
    std::int64_t sum = 0;
    for (const auto& t : census.tasks)
        if (t.tid != self && t.settled_ns >= 0 && t.cpu_ns > t.settled_ns)
            sum += t.cpu_ns - t.settled_ns;
    return sum;
}

// Moves the threads of `named` that `preexisting` lists as counted into `counted`.
void move_counted(std::vector<EscapedThread>& named, std::vector<EscapedThread>& counted,
                  const Json& preexisting) {
    if (preexisting.is_null()) return;
    for (const auto& c : preexisting.at("preExisting").as_array())
        std::erase_if(named, [&](const EscapedThread& t) {
            if (t.tid != static_cast<long>(c.at("tid").as_number())) return false;
            counted.push_back(t);
            return true;
        });
}

// "--perf and raw: " for a preExistingMissed entry whose tiers are perf and raw; "" when it names
// none.
std::string tier_words(const Json& missed) {
    const Json* tiers = missed.find("tiers");
    if (!tiers) return "";
    std::string words;
    const auto& list = tiers->as_array();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string& t = list[i].as_string();
        words += (i == 0                 ? ""
                  : i + 1 == list.size() ? " and "
                                         : ", ") +
                 (t == "perf"                ? "--perf"
                  : t == "raw" || t == "pfm" ? t + ":"
                                             : t);
    }
    return words.empty() ? "" : words + " ";
}

template <class T>
double total_cpu(const std::vector<T>& list) {
    double sum = 0;
    for (const auto& t : list) sum += t.cpu_ns;
    return sum;
}

Json unwaited_json(const std::vector<UnwaitedChild>& children) {
    Json list = Json::array();
    for (const auto& c : children) {
        Json j = Json::object();
        j["pid"] = static_cast<double>(c.pid);
        j["name"] = c.name;
        j["cpuNs"] = c.cpu_ns;
        j["exited"] = c.exited;
        list.push_back(std::move(j));
    }
    return list;
}

// The reason for `children` (their CPU time `ns` beyond the bound), with the one remedy.
std::string unwaited_why(const std::vector<UnwaitedChild>& children, double ns) {
    const auto ended =
        std::count_if(children.begin(), children.end(), [](const auto& c) { return c.exited; });
    const bool one = children.size() == 1;
    return fmt::format(
        "{} child process{} the body started and had not waited for when the passes ended{} ran "
        "{:.3g} ms of CPU time during the counting passes and {} in no count, with or without "
        "--perf-inherit (a child's counts join its parent's when it exits, getrusage's when it is "
        "waited for): wait for {} within the case",
        children.size(), one ? "" : "es",
        ended ? fmt::format(" ({} ended, not reaped)", ended) : "", ns / 1e6, one ? "is" : "are",
        one ? "it" : "them");
}

}  // namespace

ThreadsAtOpen threads_now() {
    const os::TaskCensus census = os::process_tasks();
    ThreadsAtOpen at{census.ok, {}};
    for (const auto& t : census.tasks) at.tids.push_back(t.tid);
    return at;
}

std::vector<EscapedThread> escaped_threads(const os::TaskCensus& before,
                                           const os::TaskCensus& after, long self,
                                           const ThreadsAtOpen& at_open) {
    std::vector<EscapedThread> out;
    if (!before.ok || !after.ok) return out;
    for (const auto& task : after.tasks) {
        if (task.tid == self || task.cpu_ns < 0) continue;
        std::int64_t start = 0;  // a thread new since `before` ran all its time within
        for (const auto& was : before.tasks)
            if (was.tid == task.tid) start = was.cpu_ns;
        if (start < 0 || task.cpu_ns <= start) continue;
        const int existed = !at_open.ok ? -1
                            : std::binary_search(at_open.tids.begin(), at_open.tids.end(), task.tid)
                                ? 1
                                : 0;
        out.push_back({task.tid, task.name, static_cast<double>(task.cpu_ns - start), existed});
    }
    std::stable_sort(out.begin(), out.end(), [](const EscapedThread& a, const EscapedThread& b) {
        return a.cpu_ns > b.cpu_ns;
    });
    return out;
}

std::vector<UnwaitedChild> unwaited_children(const os::ChildCensus& before,
                                             const os::ChildCensus& after, bool inherit, long self,
                                             const ThreadsAtOpen& at_open) {
    std::vector<UnwaitedChild> out;
    if (!before.ok || !after.ok) return out;
    for (const auto& child : after.children) {
        if (child.cpu_ns < 0) continue;
        std::int64_t start = 0;  // a child new since `before` ran all its time within
        for (const auto& was : before.children)
            if (was.pid == child.pid) start = was.cpu_ns;
        if (start < 0 || child.cpu_ns <= start) continue;
        // The threads that inherit: the measuring one, and those created after the open.
        const long parent = child.parent_tid;
        const bool after_open =
            at_open.ok && !std::binary_search(at_open.tids.begin(), at_open.tids.end(), parent);
        if (inherit && child.exited && parent >= 0 && (parent == self || after_open)) continue;
        out.push_back(
            {child.pid, child.name, static_cast<double>(child.cpu_ns - start), child.exited});
    }
    std::stable_sort(out.begin(), out.end(), [](const UnwaitedChild& a, const UnwaitedChild& b) {
        return a.cpu_ns > b.cpu_ns;
    });
    return out;
}

EscapedWork::EscapedWork(const ThreadsAtOpen& at_open, bool inherit)
    : at_open_(at_open),
      inherit_(inherit),
      process_(os::process_cpu_ns()),
      thread_(os::thread_cpu_ns()),
      children_(os::children_cpu_ns()),
      self_(os::thread_id()),
      before_(os::process_tasks()),
      children_before_(os::process_children()) {
    if (process_ >= 0) process_ += unsettled(before_, self_);
}

Json EscapedWork::coverage(const Json& preexisting) const {
    std::int64_t process = os::process_cpu_ns();
    const std::int64_t thread = os::thread_cpu_ns(), children = os::children_cpu_ns();
    const os::TaskCensus after = os::process_tasks();  // after the clocks: its own cost is in none
    const os::ChildCensus children_after = os::process_children();
    const std::size_t missed =
        preexisting.is_null() ? 0 : preexisting.at("preExistingMissed").as_array().size();
    // Without the thread's CPU clock nothing can be weighed, but a thread known missed is still
    // said.
    const bool clocks = thread_ >= 0 && thread >= 0;
    if (!clocks && missed == 0) return Json();
    if (process >= 0) process += unsettled(after, self_);
    const double mine =
        clocks ? static_cast<double>(thread - thread_) : 0;  // the measuring thread's
    const double bound = std::max(0.05 * mine, 2e5);
    std::vector<EscapedThread> named = escaped_threads(before_, after, self_, at_open_);
    double others = clocks && process_ >= 0 && process >= 0
                        ? static_cast<double>(process - process_) - mine
                        : 0;
    others = std::max(others, total_cpu(named));  // the threads' own clocks are exact
    double forked = children_ >= 0 && children >= 0 ? static_cast<double>(children - children_) : 0;
    // Named: the threads that ran at least 1% of it (an idle thread's wake-ups are not the work).
    const auto keep_major = [&] {
        std::erase_if(named,
                      [&](const EscapedThread& t) { return t.cpu_ns < kNamedShare * others; });
    };
    std::vector<UnwaitedChild> unwaited =
        unwaited_children(children_before_, children_after, inherit_, self_, at_open_);
    const double unwaited_ns = total_cpu(unwaited);
    const bool unwaited_beyond = unwaited_ns > bound;
    const std::string unwaited_reason = unwaited_beyond ? unwaited_why(unwaited, unwaited_ns) : "";
    std::erase_if(unwaited,
                  [&](const UnwaitedChild& c) { return c.cpu_ns < kNamedShare * unwaited_ns; });
    const auto add_unwaited = [&](Json& coverage) {
        const bool known = children_before_.ok && children_after.ok;
        coverage["unwaitedCpuNs"] = unwaited_beyond ? Json(unwaited_ns) : Json();
        coverage["unwaitedChildren"] = !known            ? Json()
                                       : unwaited_beyond ? unwaited_json(unwaited)
                                                         : Json::array();
    };
    Json why = Json::array();
    std::vector<EscapedThread> counted;  // pre-existing threads the perf tier counted
    if (inherit_) {  // inherit counts what the measuring thread starts: the threads it cannot
                     // follow
        std::erase_if(named, [](const EscapedThread& t) { return t.existed_before != 1; });
        move_counted(named, counted, preexisting);
        others = total_cpu(named);
        forked = 0;
        keep_major();
        if (others > bound)
            why.push_back(fmt::format(
                "{} thread{} that existed before the counters opened ran {:.3g} ms of CPU "
                "time during the counting passes and {} not in its counts: {}",
                named.size(), named.size() == 1 ? "" : "s", others / 1e6,
                named.size() == 1 ? "is" : "are",
                preexisting.is_null()
                    ? "inherit covers threads created after (and what the measuring thread "
                      "starts), and those already running where a tier opened a group on "
                      "each (none was opened)"
                    : "the groups opened on the threads alive at the open did not count "
                      "them (preExistingMissed says why for those that could not open)"));
    } else {
        if (others > bound) {
            why.push_back(fmt::format(
                "other threads of the process ran {:.3g} ms of CPU time during the counting "
                "passes ({:.0f}% of the measuring thread's) and are not in its counts: "
                "threads the body started (--perf-inherit counts those created after the "
                "counters open), or threads already running",
                others / 1e6, 100 * others / std::max(mine, 1.0)));
            if (const double unnamed = others - total_cpu(named); unnamed > bound)
                why.push_back(fmt::format(
                    "{:.3g} ms of it by threads that ended within the passes (not named: "
                    "an ended thread is no longer listed)",
                    unnamed / 1e6));
            keep_major();
        }
        if (forked > bound)
            why.push_back(fmt::format(
                "child processes the body started ran {:.3g} ms of CPU time during the "
                "counting passes and are not in its counts (--perf-inherit counts those "
                "forked after the counters open)",
                forked / 1e6));
    }
    if (unwaited_beyond) why.push_back(unwaited_reason);
    if (why.as_array().empty() && total_cpu(counted) <= bound && missed == 0) return Json();
    if (!preexisting.is_null() && (total_cpu(counted) > bound || missed > 0)) {
        Json coverage = preexisting;
        const std::size_t k = preexisting.at("preExisting").as_array().size();
        coverage["threads"] = static_cast<unsigned long>(1 + k + missed);
        coverage["counted"] = static_cast<unsigned long>(1 + k);
        coverage["missed"] = others > bound ? Json() : Json(static_cast<unsigned long>(missed));
        coverage["countedCpuNs"] = total_cpu(counted);
        coverage["otherCpuNs"] = others > bound ? Json(others) : Json();
        coverage["childCpuNs"] = Json();
        coverage["escaped"] = others > bound ? escaped_json(named) : Json::array();
        add_unwaited(coverage);
        for (const auto& m : preexisting.at("preExistingMissed").as_array())
            why.push_back(
                fmt::format("thread {:.0f} {} existed before the counters opened and is not in its "
                            "{}counts: {}",
                            m.at("tid").as_number(), m.at("name").as_string(), tier_words(m),
                            m.at("why").as_string()));
        coverage["missedWhy"] = std::move(why);
        return coverage;
    }
    if (why.as_array().empty()) return Json();
    Json coverage = Json::object();
    coverage["threads"] = 1ul;
    coverage["counted"] = 1ul;
    coverage["missed"] = Json();  // how many is not known: an ended thread is not listed
    coverage["otherCpuNs"] = others > bound ? Json(others) : Json();
    coverage["childCpuNs"] = forked > bound ? Json(forked) : Json();
    coverage["escaped"] = others > bound ? escaped_json(named) : Json::array();
    add_unwaited(coverage);
    coverage["missedWhy"] = std::move(why);
    return coverage;
}

}  // namespace glint::engine
