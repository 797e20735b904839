// End to end: every kind of case (fixtures/matrix.cpp) under every pair of run options. The
// option table below has one entry per flag of `--help`: either the values the matrix gives it,
// or why it stays out. A pairwise covering array is generated from the table; each of its
// combinations must exit with the expected status, every row present, every number finite or
// null, valid JSON and no "internal error". A pair the program refuses is declared in refused()
// and must be refused before measuring: exit 2, one line naming both flags. Linux only: the
// options it varies (--perf, --profile, --pin, --numa-node, --isolate) are Linux features.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <glint/detail/config.hpp>  // GLINT_CONFIG_ARCH_x86_64: the fixture has an asm case

#include "support/process.hpp"
#include "support/temp_dir.hpp"

using glint::test::contains;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;
using glint::test::TempDir;

namespace {

// One factor of the matrix: the flag of --help it covers and its levels; level 0 is "not
// given" (no arguments). "{dir}" in an argument is the combination's temporary directory,
// "{base}" a --bench-json of an earlier run (baseline_file).
struct Factor {
    std::string flag;
    std::vector<std::vector<std::string>> levels;
};

const std::vector<Factor>& factors() {
    static const std::vector<Factor> table = {
        // The run mode: --bench, plain test mode (no flag), --list.
        {"--bench", {{"--bench"}, {}, {"--list"}}},
        {"--bench-repeat", {{}, {"--bench-repeat=2"}}},
        {"--isolate", {{}, {"--isolate"}}},
        {"--profile",
         {{}, {"--profile", "--profile-time=20", "--profile-folded={dir}/folded.txt"}}},
        // --perf, and under --perf-inherit with a pfm: software event: both tiers' groups inherit
        // and open on the threads already running (the pfm: column shown beside the defaults).
        {"--perf", {{}, {"--perf"}, {"--perf", "--perf-inherit", "--metrics=*,pfm:TASK-CLOCK"}}},
        {"--per-iteration", {{}, {"--per-iteration"}}},
        {"--histogram", {{}, {"--histogram=k_*"}}},
        {"--pin", {{}, {"--pin=auto"}}},
        {"--numa-node", {{}, {"--numa-node=0"}}},
        {"--bench-baseline", {{}, {"--bench-baseline={base}"}}},
        {"--bench-html", {{}, {"--bench-html={dir}/report.html"}}},
        {"--bench-format",
         {{}, {"--bench-format=md"}, {"--bench-format=csv"}, {"--bench-format=gbench-json"}}},
        {"--color", {{}, {"--color=always"}, {"--color=never"}}},
        {"--group-by", {{}, {"--group-by=op"}}},
        {"--sort-by", {{}, {"--sort-by=-median"}}},
        {"--case-timeout", {{}, {"--case-timeout=60"}}},
        {"--quiet-environment", {{}, {"--quiet-environment"}}},
        {"--bench-json-samples", {{}, {"--bench-json-samples=all"}}},
        // Under Valgrind's Callgrind: few simulated iterations, so the matrix stays quick.
        {"--simulate", {{}, {"--simulate", "--perf-iters=20"}}},
    };
    return table;
}

// Flags of --help the matrix does not vary, and why.
const std::map<std::string, std::string>& exclusions() {
    static const std::map<std::string, std::string> table = {
        {"--list", "a level of the --bench factor (the run mode)"},
        {"--bench-min-time",
         "every combination runs with --bench-min-time=0.05, so the matrix fits CI"},
        {"--bench-json", "every combination writes it: the JSON is what the matrix checks"},
        {"--filter", "selects cases before anything runs; the matrix needs every case kind"},
        {"--format", "--list --format=json only; e2e list tests cover it"},
        {"--threshold", "a comparison setting of --bench-baseline; compare tests cover it"},
        {"--fail-if-slower", "changes the exit status by timing, which is not stable under load"},
        {"--allow-unjudged",
         "relaxes --fail-if-slower's gate (excluded above); compare tests cover it"},
        {"--perf-scaled", "a variant of --perf (how multiplexed groups render)"},
        {"--perf-inherit",
         "a level of the --perf factor, with a pfm: column (threads created later: the fixture "
         "makes none; those already running: threads tests cover them)"},
        {"--perf-iters", "sizes the --perf pass"},
        {"--perf-batch", "sizes the --perf pass"},
        {"--perf-read", "a variant of --perf (how counters are read)"},
        {"--metrics", "column selection; catalog tests cover it"},
        {"--list-metrics", "prints the catalog and runs nothing"},
        {"--capabilities", "prints the host's capabilities and runs nothing"},
        {"--syscalls", "a tracepoint tier like --perf; catalog tests cover it"},
        {"--recover-journal", "converts a journal file and runs nothing"},
        {"--profile-samples", "a sizing of --profile (which runs with --profile-time=20)"},
        {"--profile-time", "given with --profile, to keep the sampling pass short"},
        {"--profile-folded", "given with --profile"},
        {"--version", "prints the version and runs nothing"},
        {"--help", "prints the usage and runs nothing; the source of this table's check"},
    };
    return table;
}

// Pairs the program refuses before measuring: (factor, level), (factor, level).
using Level = std::pair<std::size_t, std::size_t>;
const std::vector<std::pair<Level, Level>>& refused() {
    static const std::vector<std::pair<Level, Level>> table = {};
    return table;
}

bool is_refused(Level a, Level b) {
    for (const auto& [x, y] : refused())
        if ((x == a && y == b) || (x == b && y == a)) return true;
    return false;
}

using Combination = std::vector<std::size_t>;  // a level per factor

// The matrix: bench-mode rows forming a pairwise covering array of the run options (greedy,
// AETG-like, a fixed seed: the same array every run), then plain-mode and --list rows that give
// each level of each option once with each of those modes.
std::vector<Combination> covering_array() {
    const auto& fs = factors();
    const std::size_t n = fs.size();
    std::set<std::pair<Level, Level>>
        uncovered;  // pairs of run options (factor 0, the mode, fixed)
    for (std::size_t a = 1; a < n; ++a)
        for (std::size_t b = a + 1; b < n; ++b)
            for (std::size_t la = 0; la < fs[a].levels.size(); ++la)
                for (std::size_t lb = 0; lb < fs[b].levels.size(); ++lb)
                    if (!is_refused({a, la}, {b, lb})) uncovered.insert({{a, la}, {b, lb}});
    auto gain_of = [&](const Combination& row) {
        std::size_t gain = 0;
        for (std::size_t a = 1; a < n; ++a)
            for (std::size_t b = a + 1; b < n; ++b)
                if (row[a] != SIZE_MAX && row[b] != SIZE_MAX)
                    gain += uncovered.count({{a, row[a]}, {b, row[b]}});
        return gain;
    };
    std::mt19937 rng(2026);
    std::vector<Combination> rows;
    while (!uncovered.empty()) {
        Combination best;
        std::size_t best_gain = 0;
        for (int candidate = 0; candidate < 40; ++candidate) {
            const auto& [first, second] =
                *std::next(uncovered.begin(), static_cast<long>(rng() % uncovered.size()));
            Combination row(n, SIZE_MAX);
            row[0] = 0;
            row[first.first] = first.second;
            row[second.first] = second.second;
            std::vector<std::size_t> order;
            for (std::size_t f = 1; f < n; ++f) order.push_back(f);
            for (std::size_t i = order.size(); i > 1; --i)
                std::swap(order[i - 1], order[rng() % i]);
            for (std::size_t f : order) {
                if (row[f] != SIZE_MAX) continue;
                std::size_t pick = SIZE_MAX, pick_gain = 0;
                for (std::size_t l = 0; l < fs[f].levels.size(); ++l) {
                    bool allowed = true;
                    for (std::size_t g = 1; g < n; ++g)
                        if (g != f && row[g] != SIZE_MAX && is_refused({f, l}, {g, row[g]}))
                            allowed = false;
                    row[f] = l;
                    const std::size_t gain = gain_of(row);
                    row[f] = SIZE_MAX;
                    if (allowed && (pick == SIZE_MAX || gain > pick_gain))
                        pick = l, pick_gain = gain;
                }
                REQUIRE(pick != SIZE_MAX);
                row[f] = pick;
            }
            if (const std::size_t gain = gain_of(row); gain > best_gain)
                best = row, best_gain = gain;
        }
        REQUIRE(best_gain > 0);
        for (std::size_t a = 1; a < n; ++a)
            for (std::size_t b = a + 1; b < n; ++b) uncovered.erase({{a, best[a]}, {b, best[b]}});
        rows.push_back(best);
    }
    std::size_t most_levels = 0;
    for (const auto& f : fs) most_levels = std::max(most_levels, f.levels.size());
    for (std::size_t mode = 1; mode < fs[0].levels.size(); ++mode)
        for (std::size_t j = 0; j < most_levels; ++j) {
            Combination row(n);
            row[0] = mode;
            for (std::size_t f = 1; f < n; ++f) row[f] = j % fs[f].levels.size();
            rows.push_back(row);
        }
    return rows;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

std::string command_line(const std::vector<std::string>& argv) {
    std::string line;
    for (const auto& a : argv) line += (line.empty() ? "" : " ") + a;
    return line;
}

// The rows the fixture produces, "registration/name" with their count.
const std::map<std::string, int> kMatrixRows = {
    {"k_iter/k_iter", 1},       {"k_batched/k_batched", 1}, {"k_whole/k_whole", 1},
    {"k_cases/add", 1},         {"k_cases/mul", 1},         {"k_params/k_params", 2},
    {"k_metric/k_metric", 1},   {"k_fails/wrong", 1},       {"k_param_metric/k_param_metric", 2},
    {"k_threads/k_threads", 1},
#if defined(GLINT_CONFIG_ARCH_x86_64)
    {"k_asm/k_asm", 1},
#endif
};

// A name of each case, as listings, tables and reports show it.
const char* const kCaseNames[] = {
    "k_iter",   "k_batched", "k_whole",        "add",       "mul", "k_params",
    "k_metric", "wrong",     "k_param_metric", "k_threads",
#if defined(GLINT_CONFIG_ARCH_x86_64)
    "k_asm",
#endif
};

// Every number in `j` is finite; names the first that is not.
void check_numbers(const nlohmann::json& j, const std::string& where, std::string& bad) {
    if (!bad.empty()) return;
    if (j.is_number_float() && !std::isfinite(j.get<double>())) bad = where;
    else if (j.is_object())
        for (const auto& [k, v] : j.items()) check_numbers(v, where + "." + k, bad);
    else if (j.is_array())
        for (std::size_t i = 0; i < j.size(); ++i)
            check_numbers(j[i], where + "[" + std::to_string(i) + "]", bad);
}

// Fields of one CSV line ("" quotes a field holding commas or quotes), or cells of one markdown
// table line (one per '|' after the first).
std::size_t fields(const std::string& line, bool csv) {
    if (!csv) return static_cast<std::size_t>(std::count(line.begin(), line.end(), '|'));
    std::size_t n = 1;
    bool quoted = false;
    for (char ch : line) {
        if (ch == '"') quoted = !quoted;
        else if (ch == ',' && !quoted) ++n;
    }
    return n;
}

// --bench-format=csv|md: each table (csv: lines between blank lines, '#' lines aside; md: runs
// of lines starting with '|') has as many fields on every line as on its header. Empty when it
// does; else the first line that does not.
std::string table_problem(const std::string& out, bool csv) {
    std::istringstream lines(out);
    std::size_t header = 0;
    for (std::string line; std::getline(lines, line);) {
        if (!csv && !line.empty() && line[0] != '|') line.clear();
        if (line.empty()) header = 0;
        else if (line[0] == '#') continue;
        else if (header == 0) header = fields(line, csv);
        else if (fields(line, csv) != header)
            return "'" + line + "' has " + std::to_string(fields(line, csv)) +
                   " fields, its header " + std::to_string(header);
    }
    return "";
}

// A baseline for --bench-baseline: two of the cases (rows only in the run are part of it).
std::string baseline_file(const TempDir& dir) {
    const std::string path = dir.file("base.json");
    auto r = run_process({fixture_path("matrix"), "--bench", "--bench-min-time=0.05",
                          "--filter=k_iter,k_cases", "--bench-json=" + path});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return path;
}

// Whether a counting pass or a profile measured any row of the document.
bool counted_or_sampled(const nlohmann::json& doc) {
    for (const auto& row : doc["rows"])
        if (row.contains("countIterations") || row.contains("profile")) return true;
    return false;
}

// What is wrong with one combination's run; empty when nothing is.
std::vector<std::string> problems_of(const glint::test::ProcessResult& r, const std::string& mode,
                                     const std::vector<std::string>& argv, const TempDir& dir) {
    const std::string command = command_line(argv);
    std::vector<std::string> problems;
    auto expect = [&](bool ok, const std::string& what) {
        if (!ok) problems.push_back(what);
    };
    expect(!contains(r.err + r.out, "internal error"), "an internal error");
    expect(!contains(r.err, "glint: error"), "an error on stderr");
    expect(r.term_signal == 0, "killed by signal " + std::to_string(r.term_signal));
    if (mode == "list") {
        expect(r.exit_code == 0, "exit " + std::to_string(r.exit_code) + ", expected 0");
        for (const char* name : kCaseNames)
            expect(contains(r.out, name), std::string("the listing lacks ") + name);
        for (std::size_t i = 1; i < argv.size();
             ++i) {  // a listing runs nothing: every run option says so
            const std::string flag = argv[i].substr(0, argv[i].find('='));
            if (flag != "--list")
                expect(contains(r.err, "glint: note: " + flag + " has no effect with --list"),
                       flag + " is ignored without a note");
        }
        return problems;
    }
    if (r.exit_code == 2) {
        problems.push_back("refused (exit 2): " + r.err.substr(0, r.err.find('\n')) +
                           " -- if that refusal is right, declare the pair in refused()");
        return problems;
    }
    // k_fails fails its check in every mode: exit 1, and nothing else fails.
    expect(r.exit_code == 1,
           "exit " + std::to_string(r.exit_code) + ", expected 1 (k_fails fails)");
    if (mode == "plain") {
        // Plain mode runs each case once (in a child under --isolate), each under --case-timeout's
        // watchdog: every other flag says it has no effect rather than being dropped in silence.
        for (std::size_t i = 1; i < argv.size(); ++i) {
            const std::string flag = argv[i].substr(0, argv[i].find('='));
            if (flag != "--isolate" && flag != "--case-timeout")
                expect(contains(r.err, "glint: note: " + flag + " has no effect"),
                       flag + " is ignored without a note");
        }
        expect(contains(r.err, "k_fails/wrong") && contains(r.err, "expected 1, got 2"),
               "k_fails's failure not reported");
        return problems;
    }
    for (const char* name : kCaseNames)
        expect(contains(r.out, name), std::string("the table lacks ") + name);
    for (const char* format : {"csv", "md"})
        if (contains(command, std::string("--bench-format=") + format)) {
            const std::string bad = table_problem(r.out, format == std::string("csv"));
            expect(bad.empty(), std::string("the ") + format + " output: " + bad);
        }
    if (contains(command, "--bench-format=gbench-json"))
        expect(contains(r.out, "\"benchmarks\": [") && contains(r.out, "\"real_time\""),
               "--bench-format=gbench-json: no Google Benchmark document on the standard output");
    // Colour only in the box table, and piped only when asked for.
    const bool painted =
        contains(command, "--color=always") && !contains(command, "--bench-format=");
    expect(contains(r.out, "\x1b[") == painted,
           painted ? "--color=always painted nothing" : "escape codes in the output");
    if (contains(command, "--bench-html=")) {
        const std::string html = read_file(dir.file("report.html"));
        for (const char* name : kCaseNames)
            expect(contains(html, name), std::string("the HTML report lacks ") + name);
    }
    const nlohmann::json doc =
        nlohmann::json::parse(read_file(dir.file("run.json")), nullptr, false);
    if (doc.is_discarded() || !doc.contains("rows")) {
        problems.push_back("--bench-json is not valid JSON with rows");
        return problems;
    }
    // --profile: a profile per row where this host can sample (else meta.statuses says why not).
    bool profiling = false;
    if (contains(command, "--profile")) {
        bool stated = false;
        for (const auto& status : doc["meta"].value("statuses", nlohmann::json::array()))
            if (status.value("capability", "") == "profile") {
                stated = true;
                profiling = status.value("state", "") == "available";
            }
        expect(stated, "--profile: meta.statuses does not say whether this host can sample");
    }
    if (contains(command, "--profile-folded=") && profiling)
        expect(contains(read_file(dir.file("folded.txt")), "k_iter"),
               "the folded stacks lack k_iter");
    std::map<std::string, int> rows;
    std::set<std::string> sizes;
    for (const auto& row : doc["rows"]) {
        const std::string id = row.value("registration", "?") + "/" + row.value("name", "?");
        ++rows[id];
        expect(row.contains("error") == (id == "k_fails/wrong"),
               "row " + id +
                   (row.contains("error") ? " has an error: " + row["error"].dump()
                                          : " has no error"));
        if (row.contains("error")) continue;
        if (contains(command, "--bench-repeat=2")) {
            const auto& medians = row.value("repetitionMediansNs", nlohmann::json());
            expect(medians.is_array() && medians.size() == 2,
                   "row " + id + " lacks its 2 repetition medians");
        }
        // An instruction-level row is counted by the difference, never sampled, and says so
        // (docs/asm.md).
        const bool asm_row = id == "k_asm/k_asm";
        // A multi-threaded row is counted on each thread and summed, never sampled, and says so
        // (docs/threads.md).
        const bool threads_row = id == "k_threads/k_threads";
        if (contains(command, "--profile") && profiling)
            expect(row.contains("profile") != (asm_row || threads_row),
                   "row " + id + (asm_row || threads_row ? " has a profile" : " has no profile"));
        if (threads_row) {
            expect(row.value("threads", 0) == 2, "row k_threads does not say it ran on 2 threads");
            const auto rate = row["metrics"].value("B/s", nlohmann::json());
            expect(rate.is_number() && rate.get<double>() > 0,
                   "row k_threads has no B/s: " + rate.dump());
            if (counted_or_sampled(doc))
                expect(
                    row.value("counters", "").find("each of the 2 threads counted itself") == 0 ||
                        row.value("counters", "").find("no profile or per-call distribution") ==
                            0 ||
                        contains(row.value("counters", ""), ": not counted, its counters follow"),
                    "row k_threads does not say how its threads are counted");
        }
        if (asm_row && counted_or_sampled(doc))
            expect(row.value("counters", "").find("per instruction by the difference method") == 0,
                   "row k_asm does not say how it is counted");
        if (id == "k_params/k_params") sizes.insert(row["labels"].value("size", "?"));
        if (id == "k_metric/k_metric") {
            const auto rate = row["metrics"].value("B/s", nlohmann::json());
            expect(rate.is_number() && rate.get<double>() > 0,
                   "row k_metric has no B/s: " + rate.dump());
        }
        if (id ==
            "k_param_metric/k_param_metric") {  // the iter's B and the registration's elem per row
            const auto bytes = row["metrics"].value("B/s", nlohmann::json());
            const auto elems = row["metrics"].value("elem/s", nlohmann::json());
            const bool both = bytes.is_number() && elems.is_number() && bytes.get<double>() > 0;
            expect(both && std::abs(bytes.get<double>() / elems.get<double>() - 1) < 1e-5,
                   "row k_param_metric's B/s and elem/s differ: " + bytes.dump() + ", " +
                       elems.dump());
        }
    }
    expect(sizes == std::set<std::string>{"8", "64"}, "the k_params rows are not size 8 and 64");
    for (const auto& [id, count] : kMatrixRows)
        expect(rows[id] == count, "JSON has " + std::to_string(rows[id]) + " rows " + id +
                                      ", expected " + std::to_string(count));
    std::string bad;
    check_numbers(doc, "json", bad);
    expect(bad.empty(), "a number that is not finite: " + bad);
    return problems;
}

// Placement a host may refuse (no NUMA node 0, set_mempolicy or affinity denied in a
// container): each such level, alone with --bench, and the one-line error it gets here.
std::map<Level, std::string> host_refusals() {
    std::map<Level, std::string> refusals;
    const auto& fs = factors();
    for (std::size_t f = 1; f < fs.size(); ++f) {
        if (fs[f].flag != "--pin" && fs[f].flag != "--numa-node") continue;
        for (std::size_t l = 1; l < fs[f].levels.size(); ++l) {
            std::vector<std::string> argv{fixture_path("matrix"), "--bench",
                                          "--bench-min-time=0.05", "--filter=k_whole"};
            for (const auto& arg : fs[f].levels[l]) argv.push_back(arg);
            const auto r = run_process(argv);
            if (r.exit_code != 2) continue;
            MESSAGE("this host refuses " << command_line(argv) << ": " << r.err);
            refusals[{f, l}] = r.err;
        }
    }
    return refusals;
}

// A combination holding a level the host refuses must be refused before measuring: exit 2, one
// of those levels' lines, nothing written.
std::vector<std::string> host_refusal_problems(const glint::test::ProcessResult& r,
                                               const std::vector<std::string>& lines,
                                               const TempDir& dir) {
    std::vector<std::string> problems;
    if (r.exit_code != 2)
        problems.push_back("exit " + std::to_string(r.exit_code) +
                           ", expected 2 (the host refuses it)");
    if (std::find(lines.begin(), lines.end(), r.err) == lines.end())
        problems.push_back("stderr is not the host's one-line refusal: " + lines.front());
    if (!read_file(dir.file("run.json")).empty())
        problems.push_back("JSON written before the refusal");
    return problems;
}

void run_combination(const Combination& c, const std::string& base,
                     const std::map<Level, std::string>& host) {
    const auto& fs = factors();
    TempDir dir("glint_e2e_matrix");
    const std::string json = dir.file("run.json");
    std::vector<std::string> argv{fixture_path("matrix"), "--bench-min-time=0.05",
                                  "--bench-json=" + json};
    for (std::size_t f = 0; f < fs.size(); ++f)
        for (const auto& arg : fs[f].levels[c[f]])
            argv.push_back(
                replace_all(replace_all(arg, "{dir}", dir.path.string()), "{base}", base));
    const std::string mode = c[0] == 0 ? "bench" : c[0] == 1 ? "plain" : "list";
    const auto started = std::chrono::steady_clock::now();
    const auto r = run_process(argv);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::vector<std::string> refusals;
    for (std::size_t f = 0; f < fs.size() && mode == "bench"; ++f)
        if (auto it = host.find({f, c[f]}); it != host.end()) refusals.push_back(it->second);
    const auto problems = refusals.empty() ? problems_of(r, mode, argv, dir)
                                           : host_refusal_problems(r, refusals, dir);
    std::string list;
    for (const auto& p : problems) list += "\n  - " + p;
    MESSAGE(seconds << " s: " << command_line(argv));
    CHECK_MESSAGE(problems.empty(), "combination failed: " << command_line(argv) << list
                                                           << "\nstderr:\n"
                                                           << r.err);
}

// A declared refusal: the pair alone (with --bench) exits 2 before measuring (no JSON written)
// with one line on stderr naming both flags.
void run_refused(Level a, Level b, const std::string& base) {
    const auto& fs = factors();
    TempDir dir("glint_e2e_matrix_refused");
    std::vector<std::string> argv{fixture_path("matrix"), "--bench", "--bench-min-time=0.05",
                                  "--bench-json=" + dir.file("run.json")};
    for (const Level& l : {a, b})
        for (const auto& arg : fs[l.first].levels[l.second])
            argv.push_back(
                replace_all(replace_all(arg, "{dir}", dir.path.string()), "{base}", base));
    const auto r = run_process(argv);
    INFO("refused pair: " << command_line(argv) << "\nstderr:\n" << r.err);
    CHECK(r.exit_code == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(contains(r.err, fs[a.first].flag));
    CHECK(contains(r.err, fs[b.first].flag));
    CHECK(read_file(dir.file("run.json")).empty());
}

// Runs the array's combinations i with i % parts == part (one ctest entry each: ctest -j2 runs
// them side by side).
void run_part(std::size_t part, std::size_t parts) {
    TempDir dir("glint_e2e_matrix_base");
    const std::string base = baseline_file(dir);
    const auto rows = covering_array();
    const auto host = host_refusals();
    for (std::size_t i = part; i < rows.size(); i += parts) run_combination(rows[i], base, host);
    if (part == 0)
        for (const auto& [a, b] : refused()) run_refused(a, b, base);
}

std::vector<std::string> help_flags() {
    auto r = run_process({fixture_path("matrix"), "--help"});
    REQUIRE(r.exit_code == 0);
    std::vector<std::string> flags;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("  --", 0) != 0) continue;
        const std::size_t end = line.find_first_of("=[ ", 2);
        flags.push_back(line.substr(2, end - 2));
    }
    return flags;
}

}  // namespace

TEST_CASE("e2e matrix: every flag of --help has values in the matrix or a reasoned exclusion") {
    const auto flags = help_flags();
    CHECK(flags.size() >= 20);  // the parse found the flag list
    for (const auto& flag : flags) {
        const bool varied = std::any_of(factors().begin(), factors().end(),
                                        [&](const Factor& f) { return f.flag == flag; });
        CHECK_MESSAGE((varied || exclusions().count(flag) == 1),
                      flag << " (in --help) has no entry in tests/e2e/matrix_linux_test.cpp: give "
                              "it values in factors() "
                              "or a reason in exclusions()");
        CHECK_MESSAGE(!(varied && exclusions().count(flag) == 1),
                      flag << " is both varied and excluded");
    }
    // No entry outlives its flag.
    for (const auto& f : factors())
        CHECK_MESSAGE(std::find(flags.begin(), flags.end(), f.flag) != flags.end(),
                      f.flag << " is not in --help");
    for (const auto& excluded : exclusions())  // not a structured binding: CHECK_MESSAGE's lambda
        CHECK_MESSAGE(std::find(flags.begin(), flags.end(), excluded.first) != flags.end(),
                      excluded.first << " is not in --help");
}

TEST_CASE(
    "e2e matrix: the array holds every allowed pair of run options in bench mode and every level "
    "in each mode") {
    const auto rows = covering_array();
    const auto& fs = factors();
    auto held = [&](std::size_t a, std::size_t la, std::size_t b, std::size_t lb, bool bench_only) {
        return std::any_of(rows.begin(), rows.end(), [&](const Combination& c) {
            return c[a] == la && c[b] == lb && (!bench_only || c[0] == 0);
        });
    };
    std::size_t pairs = 0;
    for (std::size_t a = 0; a < fs.size(); ++a)
        for (std::size_t b = a + 1; b < fs.size(); ++b)
            for (std::size_t la = 0; la < fs[a].levels.size(); ++la)
                for (std::size_t lb = 0; lb < fs[b].levels.size(); ++lb) {
                    if (is_refused({a, la}, {b, lb})) continue;
                    ++pairs;
                    CHECK_MESSAGE(held(a, la, b, lb, a != 0), fs[a].flag << " level " << la
                                                                         << " with " << fs[b].flag
                                                                         << " level " << lb);
                }
    MESSAGE(rows.size() << " combinations cover " << pairs << " pairs of " << fs.size()
                        << " factors");
}

TEST_CASE("e2e matrix: combinations part 1 of 4") { run_part(0, 4); }
TEST_CASE("e2e matrix: combinations part 2 of 4") { run_part(1, 4); }
TEST_CASE("e2e matrix: combinations part 3 of 4") { run_part(2, 4); }
TEST_CASE("e2e matrix: combinations part 4 of 4") { run_part(3, 4); }
