#include "engine/runner/bench/case_measure.hpp"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "engine/report/text.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/stability/verdict.hpp"
#include "engine/threads/thread_team.hpp"
#include "engine/tiers/client_metrics.hpp"
#include "engine/timing/clock.hpp"
#include "engine/timing/protocol.hpp"

namespace glint::engine {
namespace {
constexpr double kPassesTogetherWarn = 0.9;  // rows[].threadCoverage.passesTogether below: said
constexpr std::size_t kEscapedNamed = 3;     // threads named a group on the line; the rest counted

// " · 2 threads escaped: 4711 pool (1.2 ms), …: <remedy>", for those threadCoverage.escaped
// lists that did (`before`) or did not exist when the counters opened; "" when none.
// `counting`: --perf-inherit's groups on the threads alive at the open were there (preExisting).
std::string escaped_words(const Json& escaped, bool before, bool counting) {
    std::vector<const Json*> group;
    for (const auto& t : escaped.as_array())
        if (const Json& e = t.at("existedBefore"); (e.is_bool() && e.as_bool()) == before)
            group.push_back(&t);
    if (group.empty()) return "";
    std::string words =
        fmt::format(" · {} thread{} escaped: ", group.size(), group.size() == 1 ? "" : "s");
    for (std::size_t i = 0; i < group.size() && i < kEscapedNamed; ++i)
        words +=
            fmt::format("{}{:.0f} {} ({:.3g} ms)", i ? ", " : "", group[i]->at("tid").as_number(),
                        group[i]->at("name").as_string(), group[i]->at("cpuNs").as_number() / 1e6);
    if (group.size() > kEscapedNamed)
        words += fmt::format(" and {} more", group.size() - kEscapedNamed);
    const bool one = group.size() == 1;
    if (!before) return words + fmt::format(": count {} with --perf-inherit", one ? "it" : "them");
    if (counting)
        return words + fmt::format(": {} existed before the counters opened and {} not counted",
                                   one ? "it" : "they", one ? "was" : "were");
    return words +
           fmt::format(
               ": {} existed before the counters opened: --perf-inherit counts {} (a group on each "
               "in the perf, raw:, pfm: and syscall tiers; tier 0 does too), or start {} within "
               "the "
               "case, or make it a glint::threads case",
               one ? "it" : "they", one ? "it" : "them", one ? "it" : "them");
}

// " · 2 child processes not waited for: 4711 worker (1.02 ms), …", for
// threadCoverage.unwaitedChildren.
std::string unwaited_words(const Json* children) {
    if (!children || !children->is_array() || children->as_array().empty()) return "";
    const auto& list = children->as_array();
    std::string words = fmt::format(" · {} child process{} not waited for: ", list.size(),
                                    list.size() == 1 ? "" : "es");
    for (std::size_t i = 0; i < list.size() && i < kEscapedNamed; ++i)
        words +=
            fmt::format("{}{:.0f} {} ({:.3g} ms{})", i ? ", " : "", list[i].at("pid").as_number(),
                        list[i].at("name").as_string(), list[i].at("cpuNs").as_number() / 1e6,
                        list[i].at("exited").as_bool() ? ", ended" : "");
    if (list.size() > kEscapedNamed)
        words += fmt::format(" and {} more", list.size() - kEscapedNamed);
    return words;
}
}  // namespace

Row CaseMeasurer::measure(const Case& given, Repetitions& reps,
                          const std::function<void()>& progress,
                          const std::function<void()>& checkpoint) {
    if (given.threads <= 1) return measure_on(given, given.work, reps, progress, checkpoint, {});
    // A multi-threaded case (docs/threads.md): the same protocol times a batch that runs on
    // every thread of a team; a rate is the amount of all threads together.
    if (!given.work.batched()) throw std::invalid_argument(kBenchCaseOneThread);
    if (auto problem = threaded_batch_problem(given.work.batch))
        throw std::invalid_argument(*problem);
    const std::vector<unsigned> cpus =
        team_cpus(given.threads);  // each thread on a CPU, counting too
    ThreadTeam team(given.work.batch, given.threads, cpus);
    Case c = given;
    c.work.batch = team.batch();
    for (auto& m : c.metrics)
        if (m.mode == glint::Metric::rate) m.amount *= given.threads;
    return measure_on(c, given.work, reps, progress, checkpoint, cpus);
}

Row CaseMeasurer::measure_on(const Case& c, const Workload& one, Repetitions& reps,
                             const std::function<void()>& progress,
                             const std::function<void()>& checkpoint,
                             const std::vector<unsigned>& cpus) {
    Row row;
    row.registration = c.registration;
    row.name = c.name;
    row.labels = c.labels;
    TimingConfig config;
    config.min_time_ns = min_time_ns_;
    config.pinned = c.pinned;
    const glint::detail::Batch& batch = c.work.batch;
    if (const std::uint64_t n = c.pinned ? 0 : reps.pinned_iterations(row); n && c.work.batched()) {
        // A later repetition: the first one's calls (a difference's iterations are span each),
        // after a warm-up.
        config.pinned = batch.reference ? std::max<std::uint64_t>(1, n / batch.span) : n;
        config.warm_up = true;
    }
    config.wall_budget_ns = std::max(1e9, 200 * config.min_time_ns);
    config.progress = progress;
    config.before_samples = [this] { watcher_.begin(); };
    config.checkpoint = checkpoint;
    if (c.work.batched()) {
        row.timing = time_batched(c.work.batch, config);
    } else {
        c.work.per_call->timed();  // warm-up call, untimed, with its after
        c.work.after_one();
        row.timing = time_per_call(
            *c.work.per_call, [&] { c.work.after_one(); }, config);
    }
    row.stability = watcher_.end();
    if (!reps.last()) return row;  // kept for the last repetition, which counts
    reps.merge(row);
    if (row.is_error()) return row;
    row.stability->unstable =
        unstable_reasons(*row.timing, *row.stability, clock_properties().resolution_ns);
    const auto counting_progress = [&] {
        checkpoint();
        progress();
    };
    CountedCase counted;
    if (c.threads > 1) {
        row.extra_fields["threads"] = static_cast<unsigned long>(c.threads);
        counted =
            tiers_.count_threads(one, c.work, c.threads, cpus, *row.timing, counting_progress);
        if (const Json* how = counted.row_fields.find("counters"); how && !noted_threads_) {
            report::print_wrapped(stderr,
                                  "glint: note: " + display_name(c.registration, c.name, c.labels) +
                                      " and any other multi-threaded row: " + how->as_string());
            noted_threads_ = true;
        }
    } else if (batch.reference) {
        counted = tiers_.count_difference(c.work, *row.timing, counting_progress);
    } else {
        counted = tiers_.count(c.name, display_name(c.registration, c.name, c.labels), c.work,
                               *row.timing, counting_progress);
    }
    if (batch.reference && !tiers_.empty() && !noted_difference_) {
        report::print_wrapped(stderr,
                              "glint: note: " + display_name(c.registration, c.name, c.labels) +
                                  " and any other instruction-level row: " + kCountedByDifference);
        noted_difference_ = true;
    }
    row.cells = std::move(counted.cells);
    row.count_iterations = counted.count_iterations;
    for (auto& [key, value] : counted.row_fields.as_object()) row.extra_fields[key] = value;
    // What an instruction-level row's iterations are: iterationsPerSample counts instructions,
    // differenceSpan of them per call of the longer function beyond the shorter.
    if (batch.reference)
        row.extra_fields["differenceSpan"] = static_cast<unsigned long>(batch.span);
    if (!c.metrics.empty()) {
        auto cells = client_cells(c.metrics, &*row.timing);
        row.cells.insert(row.cells.end(), cells.begin(), cells.end());
    }
    add_baseline_cells(row);
    return row;
}

std::optional<std::string> CaseMeasurer::coverage_line(const Row& row, const std::string& shown) {
    const Json* coverage = row.extra_fields.find("threadCoverage");
    if (!coverage) return std::nullopt;
    const auto count = [&](const char* key) {
        return static_cast<unsigned long>(coverage->at(key).as_number());
    };
    std::string line = "threads: " + shown + ": ";
    const Json& missed = coverage->at("missed");
    if (missed.is_null()) {
        line += "work outside the measuring thread escaped the counts";
    } else {
        line += std::to_string(count("counted")) + " of " + std::to_string(count("threads")) +
                " counted, " + std::to_string(count("missed")) + " missed";
    }
    if (const Json* pre = coverage->find("preExisting"); pre && !pre->as_array().empty()) {
        const std::size_t n = pre->as_array().size();
        line += fmt::format(
            " · {} thread{} that existed before the counters opened counted (read(2) around each "
            "pass):",
            n, n == 1 ? "" : "s");
        for (std::size_t i = 0; i < n && i < kEscapedNamed; ++i)
            line +=
                fmt::format("{} {:.0f} {}", i ? "," : "", pre->as_array()[i].at("tid").as_number(),
                            pre->as_array()[i].at("name").as_string());
        if (n > kEscapedNamed) line += fmt::format(" and {} more", n - kEscapedNamed);
    }
    for (const auto& why : coverage->at("missedWhy").as_array()) line += " · " + why.as_string();
    if (const Json* escaped = coverage->find("escaped"); escaped && escaped->is_array())
        line += escaped_words(*escaped, true, coverage->contains("preExisting")) +
                escaped_words(*escaped, false, false);
    line += unwaited_words(coverage->find("unwaitedChildren"));
    // Threads that time-shared a CPU, or passes that barely overlapped, count no contention.
    if (const Json* together = coverage->find("passesTogether");
        together && together->is_number() && together->as_number() < kPassesTogetherWarn)
        line += fmt::format(
            " · their counting passes ran together {:.0f}% of the time: contention the timed "
            "row had may be missing from its counts",
            100 * together->as_number());
    return line;
}

void CaseMeasurer::add_baseline_cells(Row& row) const {
    if (!baseline_) return;
    auto cells = baseline_cells(*baseline_, row);
    row.cells.insert(row.cells.end(), cells.begin(), cells.end());
}

Row CaseMeasurer::error_row(const Case& c, const std::string& message) {
    Row row;
    row.registration = c.registration;
    row.name = c.name;
    row.labels = c.labels;
    row.error = message;
    row.cells = client_cells(c.metrics, nullptr);
    return row;
}

}  // namespace glint::engine
