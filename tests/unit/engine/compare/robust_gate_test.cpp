// The gate on a shared machine (issue 41): a run is the unit of evidence, so one or two
// disturbed runs of eight do not veto a row; a row measured unstably in one run a side is not
// failed unless its CPU time moved too; the table's gate column is the gate's outcome, row by
// row; a per-sample interval never carries a level; documents from different hosts warn.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "engine/compare/compare.hpp"
#include "engine/compare/compare_report.hpp"

using namespace glint::engine;

namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Runs of 3 repetitions each at the given medians; `marks[i]`: run i's unstable reasons.
Side runs(std::vector<double> medians, std::vector<std::vector<std::string>> marks = {}) {
    Side s;
    for (double m : medians)
        for (double f : {0.999, 1.0, 1.001}) s.repetition_medians.push_back(m * f);
    marks.resize(medians.size());
    for (std::size_t i = 0; i < medians.size(); ++i) s.runs.push_back({medians[i], marks[i]});
    for (const auto& m : marks) s.unstable.insert(s.unstable.end(), m.begin(), m.end());
    s.median_ns = median_of(s.repetition_medians);
    s.samples_ns = s.repetition_medians;
    return s;
}

// Eight runs around `v` (within ±1%).
std::vector<double> eight(double v) {
    return {v, v * 1.004, v * 0.996, v * 1.008, v * 0.992, v * 1.002, v * 0.998, v * 1.006};
}

Side one_run(double v, std::vector<std::string> unstable, double cpu) {
    Side s;
    s.median_ns = v;
    s.repetition_medians = {v};
    s.unstable = std::move(unstable);
    for (int i = 0; i < 64; ++i) {
        s.samples_ns.push_back(v * (0.98 + 0.04 * (i % 10) / 9.0));
        s.cpu_samples_ns.push_back(cpu);
    }
    return s;
}

}  // namespace

TEST_CASE("robust gate: one or two disturbed runs of eight do not veto an agreeing row") {
    const CompareSettings settings;
    // A/A, eight runs a side; base run 3 ran 60% slow (preempted), new runs 2 and 7 80% slow
    // (run-delay): every run the machine disturbed says so itself.
    std::vector<double> a = eight(100), b = eight(100);
    a[2] *= 1.6;
    b[1] *= 1.8;
    b[6] *= 1.8;
    // Without leaving them out, the runs' rank interval reaches past +10%: the old veto.
    const auto all = runs_interval(a, b, settings.level);
    REQUIRE(all);
    CHECK(all->high > 1.10);
    std::vector<std::vector<std::string>> am(8), bm(8);
    am[2] = {"preempted"};
    bm[1] = {"run-delay"};
    bm[6] = {"run-delay", "migrated"};
    const Change marked = compare_sides(runs(a, am), runs(b, bm), settings);
    CHECK(marked.interval == Basis::runs);
    CHECK(marked.dropped.size() == 3);
    CHECK(judge_gate(marked, 0.10).outcome == GateOutcome::passed);
    // Unmarked, the same runs lie far above their sides' others: left out all the same.
    const Change unmarked = compare_sides(runs(a), runs(b), settings);
    CHECK(unmarked.dropped.size() == 3);
    CHECK(has(unmarked.dropped.front().why, "far slower"));
    CHECK(judge_gate(unmarked, 0.10).outcome == GateOutcome::passed);
    // CPU/wall below 0.9, or over half the samples on a slowed core, is a run's own evidence.
    Side lost = runs(eight(100));
    for (RunEvidence& run : lost.runs) {
        run.cpu_wall = 0.99;
        run.slow_core_share = 0;
    }
    lost.runs[4].cpu_wall = 0.6;
    lost.runs[6].slow_core_share = 0.8;
    const Change evidence = compare_sides(lost, runs(eight(100)), settings);
    REQUIRE(evidence.dropped.size() == 2);
    CHECK(has(evidence.dropped[0].why + evidence.dropped[1].why, "CPU/wall 0.60"));
    CHECK(has(evidence.dropped[0].why + evidence.dropped[1].why, "80% of samples on a slowed"));
    // "migrated" alone is not a disturbance; at most a quarter of a side is left out.
    std::vector<std::vector<std::string>> moved(8, {"migrated"});
    CHECK(compare_sides(runs(eight(100), moved), runs(eight(100)), settings).dropped.empty());
    std::vector<std::vector<std::string>> every(8, {"preempted"});
    CHECK(compare_sides(runs(eight(100), every), runs(eight(100)), settings).dropped.size() == 2);
}

TEST_CASE("robust gate: a row 20% slower still fails with two of its runs disturbed") {
    const CompareSettings settings;
    std::vector<double> b = eight(120);
    b[0] *= 1.7;
    b[5] *= 1.5;
    const Change slower = compare_sides(runs(eight(100)), runs(b), settings);
    CHECK(slower.verdict == Verdict::slower);
    CHECK(judge_gate(slower, 0.10).outcome == GateOutcome::failed);
    // A disturbance that made base runs slow never hides a regression: new stays above.
    std::vector<double> a = eight(100);
    a[3] *= 1.5;
    CHECK(judge_gate(compare_sides(runs(a), runs(eight(120)), settings), 0.10).outcome ==
          GateOutcome::failed);
}

TEST_CASE("robust gate: runs that disagree without a mark are not judged, never passed") {
    const CompareSettings settings;
    // Half the new runs 25% slower: a bimodal side, nothing to leave out (a quarter at most).
    std::vector<double> b = eight(100);
    for (int i : {0, 2, 4, 6}) b[static_cast<std::size_t>(i)] *= 1.25;
    const GateJudgement j = judge_gate(compare_sides(runs(eight(100)), runs(b), settings), 0.10);
    CHECK(j.outcome == GateOutcome::unjudged);
    CHECK(j.why == Unjudged::runs_straddle);
    // 2 runs a side reach no 90% interval: not judged (too few runs).
    const GateJudgement two =
        judge_gate(compare_sides(runs({100, 101}), runs({100, 100.5}), settings), 0.10);
    CHECK(two.why == Unjudged::few_runs);
}

TEST_CASE("robust gate: one run a side, measured unstably, CPU time unchanged: not failed") {
    const CompareSettings settings;
    // Wall time 5x (beyond the single-run factor of 4), CPU time unchanged, preempted.
    const Change busy =
        compare_sides(one_run(100, {}, 90), one_run(500, {"preempted"}, 91), settings);
    CHECK(busy.unstable_cpu_unchanged);
    CHECK(busy.verdict == Verdict::noisy);
    const GateJudgement j = judge_gate(busy, 0.10);
    CHECK(j.outcome == GateOutcome::unjudged);
    CHECK(j.why == Unjudged::unstable);
    CHECK(verdict_text(RowChange{nullptr, busy, "", j}) == "noisy (unstable)");
    CHECK(gate_text(RowChange{nullptr, busy, "", j}) == "not judged: unstable");
    // The CPU time moved as much: a real change, failed.
    const Change real =
        compare_sides(one_run(100, {}, 90), one_run(500, {"preempted"}, 450), settings);
    CHECK(judge_gate(real, 0.10).outcome == GateOutcome::failed);
    // Measured stably, 5x: failed as before.
    CHECK(judge_gate(compare_sides(one_run(100, {}, 90), one_run(500, {}, 91), settings), 0.10)
              .outcome == GateOutcome::failed);
    // No CPU times recorded: an unstable row is never failed on one run.
    Side bare = one_run(500, {"run-delay"}, 0);
    bare.cpu_samples_ns.clear();
    CHECK(judge_gate(compare_sides(one_run(100, {}, 90), bare, settings), 0.10).why ==
          Unjudged::unstable);
}

namespace {

DocumentRow random_row(std::mt19937& rng, const std::string& name, double level, int runs,
                       int reps) {
    std::uniform_real_distribution<double> jitter(0.97, 1.03), far(1.0, 1.9);
    std::bernoulli_distribution disturbed(0.15), marked(0.5);
    DocumentRow r;
    r.registration = "g";
    r.name = name;
    for (int run = 0; run < runs; ++run) {
        const double m = level * jitter(rng) * (disturbed(rng) ? far(rng) : 1.0);
        std::vector<double> mine;
        for (int k = 0; k < reps; ++k) mine.push_back(m * jitter(rng));
        r.repetition_medians_ns.insert(r.repetition_medians_ns.end(), mine.begin(), mine.end());
        for (int k = 0; k < 16; ++k) r.samples_ns.push_back(m * jitter(rng));
        r.runs.push_back({median_of(mine), m > level * 1.2 && marked(rng)
                                               ? std::vector<std::string>{"steal"}
                                               : std::vector<std::string>{}});
    }
    r.median_ns = median_of(r.repetition_medians_ns);
    return r;
}

// The md table's cell under `header` in the row named `name`.
std::string md_cell(const std::string& md, const std::string& header, const std::string& name) {
    const auto split = [](const std::string& line) {
        std::vector<std::string> cells;
        std::size_t at = 1;
        while (at < line.size()) {
            const std::size_t bar = line.find(" |", at);
            if (bar == std::string::npos) break;
            std::string cell = line.substr(at, bar - at);
            cell.erase(0, cell.find_first_not_of(' '));
            cells.push_back(cell);
            at = bar + 2;
        }
        return cells;
    };
    const std::vector<std::string> heads = split(md.substr(0, md.find('\n')));
    const auto col = std::find(heads.begin(), heads.end(), header) - heads.begin();
    const std::size_t line = md.find("\n| " + name + " |");
    if (line == std::string::npos) return "";
    const auto cells = split(md.substr(line + 1, md.find('\n', line + 1) - line - 1));
    return static_cast<std::size_t>(col) < cells.size() ? cells[static_cast<std::size_t>(col)] : "";
}

}  // namespace

TEST_CASE("robust gate: the table's gate column equals the gate's outcome, on random documents") {
    std::mt19937 rng(41);
    for (int trial = 0; trial < 60; ++trial) {
        std::uniform_int_distribution<int> run_count(1, 8), rep_count(1, 5);
        std::uniform_real_distribution<double> shift(0.8, 1.4);
        const int runs = run_count(rng), reps = rep_count(rng);
        RunDocument base, next;
        base.path = "base.json";
        next.path = "new.json";
        for (int i = 0; i < 6; ++i) {
            const std::string name = "r" + std::to_string(i);
            const double level = 100.0 * (i + 1);
            base.rows.push_back(random_row(rng, name, level, runs, reps));
            next.rows.push_back(random_row(rng, name, level * shift(rng), runs, reps));
        }
        CompareReportOptions options;
        options.gate = 0.10;
        const Comparison c = compare_documents({&base, &next}, options.settings, options.gate);
        const std::string md = render_comparison(c, options, CompareFormat::md);
        const Json j = comparison_json(c, options);
        std::size_t failed_cells = 0;
        for (std::size_t i = 0; i < c.rows.size(); ++i) {
            const RowChange& ch = c.rows[i].changes[0];
            REQUIRE(ch.gate);
            const std::string cell = md_cell(md, "gate", c.rows[i].identity);
            CAPTURE(trial);
            CAPTURE(cell);
            switch (ch.gate->outcome) {
                case GateOutcome::passed:
                    CHECK(cell == "passed");
                    break;
                case GateOutcome::failed:
                    ++failed_cells;
                    CHECK(cell.rfind("FAILED", 0) == 0);
                    break;
                case GateOutcome::unjudged:
                    CHECK(cell.rfind("not judged: ", 0) == 0);
                    break;
            }
            const Json& row = j.at("rows").as_array()[i].at("changes").as_array()[0];
            CHECK(row.at("gate") == Json(to_string(ch.gate->outcome)));
            CHECK(row.at("shown") == Json(cell));
        }
        CHECK(failed_cells == c.summaries[0].slower_beyond_gate.size());
        CHECK(c.gate_status(false) == (failed_cells ? 1 : has(md, "COULD NOT JUDGE") ? 3 : 0));
    }
}

TEST_CASE("robust gate: a per-sample interval never reads 95%, a runs interval names its basis") {
    CompareReportOptions options;
    options.gate = 0.10;
    std::mt19937 rng(7);
    for (int reps : {1, 3}) {
        RunDocument base, next;
        base.path = "base.json";
        next.path = "new.json";
        base.rows.push_back(random_row(rng, "x", 100, 1, reps));
        next.rows.push_back(random_row(rng, "x", 130, 1, reps));
        const Comparison c = compare_documents({&base, &next}, options.settings, options.gate);
        for (auto format : {CompareFormat::box, CompareFormat::md}) {
            const std::string text = render_comparison(c, options, format);
            CAPTURE(text);
            CHECK_FALSE(has(text, "95% CI"));  // the level label, not a change like "+0.95%"
            CHECK(has(text, "interval, samples"));
        }
        CHECK(comparison_json(c, options)
                  .at("rows")
                  .as_array()[0]
                  .at("changes")
                  .as_array()[0]
                  .at("intervalLevel") == Json());
    }
    RunDocument base, next;
    base.path = "base.json";
    next.path = "new.json";
    base.rows.push_back(random_row(rng, "x", 100, 8, 3));
    next.rows.push_back(random_row(rng, "x", 100, 8, 3));
    const Comparison c = compare_documents({&base, &next}, options.settings, options.gate);
    CHECK(has(render_comparison(c, options, CompareFormat::box), "95% CI, runs"));
}

TEST_CASE("robust gate: documents from different hosts, CPUs, builds or versions warn") {
    RunDocument base, next;
    base.path = "base.json";
    next.path = "new.json";
    base.host = "ci-runner-1";
    next.host = "laptop";
    base.build = "optimized";
    next.build = "unoptimized";
    base.cpu_model = next.cpu_model = "same CPU";
    base.glint_version = "0.9.0";  // the other side does not say: no warning
    DocumentRow r;
    r.registration = "g";
    r.name = "x";
    r.repetition_medians_ns = {100, 101, 99, 100, 100};
    r.median_ns = 100;
    base.rows = next.rows = {r};
    CompareReportOptions options;
    const Comparison c = compare_documents({&base, &next}, options.settings, std::nullopt);
    REQUIRE(c.warnings.size() == 2);
    const std::string text = render_comparison(c, options, CompareFormat::box);
    CHECK(has(text,
              "warning: 'new.json' and 'base.json' come from different hosts ('laptop' vs "
              "'ci-runner-1')"));
    CHECK(has(text, "different build types ('unoptimized' vs 'optimized')"));
    CHECK(comparison_json(c, options).at("warnings").as_array().size() == 2);
    next.host = base.host;
    next.build = base.build;
    CHECK(compare_documents({&base, &next}, options.settings, std::nullopt).warnings.empty());
}
