#include "engine/cli/option_table.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "engine/cli/ranges.hpp"

namespace glint::engine {
namespace {

using SV = std::string_view;

std::vector<std::string> split_list(SV text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == SV::npos) comma = text.size();
        std::string item(text.substr(start, comma - start));
        if (!item.empty()) items.push_back(std::move(item));
        start = comma + 1;
    }
    return items;
}

[[noreturn]] void fail(SV flag, const std::string& what) {
    throw UsageError(std::string(flag) + ": " + what);
}

void one_of(SV flag, SV value, std::initializer_list<SV> allowed) {
    if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
    std::string list;
    for (SV a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    fail(flag, "'" + std::string(value) + "' is not one of " + list);
}

// A CPU or node number: 0 is a valid one.
unsigned parse_index(SV flag, SV value, SV form) {
    std::string text(value);
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        fail(flag, "'" + text + "' is not a number; expected " + std::string(flag) + "=" +
                       std::string(form));
    errno = 0;
    const unsigned long long n = std::strtoull(text.c_str(), nullptr, 10);
    if (errno != 0 || n > kMaxCpuOrNode)
        fail(flag, text + " is out of range (0 to " + std::to_string(kMaxCpuOrNode) + ")");
    return static_cast<unsigned>(n);
}

const char* perf_read_name(PerfRead r) {
    switch (r) {
        case PerfRead::automatic:
            return "auto";
        case PerfRead::rdpmc:
            return "rdpmc";
        case PerfRead::syscall:
            return "syscall";
        case PerfRead::compare:
            return "compare";
    }
    return "auto";
}

Json strings(const std::vector<std::string>& items) {
    Json a = Json::array();
    for (const auto& i : items) a.push_back(i);
    return a;
}

Json count_or_null(const std::optional<std::uint64_t>& n) { return n ? Json(*n) : Json{}; }

constexpr Takes kNone = Takes::nothing, kValue = Takes::value;
constexpr Scope kAnywhere = Scope::anywhere, kBench = Scope::bench, kCounting = Scope::counting;

const OptionRow kRows[] = {
    {"--bench", kAnywhere, "", kNone, "", "measure: timing pass, counting passes, the table", "", "",
     [](Options& o, SV, SV, bool) { o.bench = true; }},
    {"--filter", kAnywhere, "=TERM,...", kValue, "GLOB",
     "select cases: a name as --list prints it, or its start up to\n/ # [ or , ('split', 'copy/memcpy [size=64'; "
     "GLOBs too),\nKEY=GLOB over a label, -TERM to exclude (names or-ed, label\nkeys and-ed: "
     "--filter='copy/*,size=4KiB,-*/slow')",
     "filter", "a*", [](Options& o, SV, SV v, bool) { o.filter = v; },
     [](const Options& o) { return o.filter.empty() ? Json{} : Json(o.filter); }},
    {"--list", kAnywhere, "", kNone, "", "list the selected cases with their labels; nothing runs", "", "",
     [](Options& o, SV, SV, bool) { o.list = true; }},
    {"--format", kAnywhere, "=json", kValue, "text|json", "with --list: the listing as JSON", "", "json",
     [](Options& o, SV f, SV v, bool) {
         one_of(f, v, {"text", "json"});
         if (v == "json") o.list_json = true;
     }},
    {"--bench-min-time", kBench, "=MS", kValue, "MS",
     "per-sample target of the iteration doubling (default 0.25);\nper-call cases measure at least 20x that in total",
     "minTimeMs", "2",
     [](Options& o, SV f, SV v, bool) { o.min_time_ms = parse_decimal_in(f, v, kMinTimeMsRange, "MS (milliseconds)"); },
     [](const Options& o) { return Json(o.min_time_ms); }},
    {"--bench-json", kBench, "=FILE", kValue, "FILE",
     "also write the run as JSON (schema 2); - is the standard\noutput (the table then goes to stderr)", "", "-",
     [](Options& o, SV, SV v, bool) { o.json_path = std::string(v); }},
    {"--bench-json-samples", kBench, "=all", kValue, "thinned|all",
     "keep every sample in the JSON (default: thinned, 256 a row at most)", "", "all",
     [](Options& o, SV f, SV v, bool) {
         one_of(f, v, {"thinned", "all"});
         o.json_all_samples = v == "all";
     }},
    {"--bench-baseline", kBench, "=FILE", kValue, "FILE",
     "compare with an earlier --bench-json: change in %, signed (vs base)\nand, after the tables, glint-compare's "
     "verdict per row",
     "", "base.json", [](Options& o, SV, SV v, bool) { o.baseline_path = std::string(v); }},
    {"--bench-repeat", kBench, "=N", kValue, "N",
     "measure every case N times, interleaved (A, B, C, A, B, C, ...);\nverdicts need 4 or more per side (default "
     "1, at most 1000)",
     "repetitions", "3", [](Options& o, SV f, SV v, bool) { o.repeat = parse_count_in(f, v, kMaxRepetitions); },
     [](const Options& o) { return Json(o.repeat); }},
    {"--threshold", kBench, "=PCT", kValue, "PCT", "with --bench-baseline: a change within ±PCT reads \"same\" (default 3)",
     "", "5", [](Options& o, SV f, SV v, bool) { o.threshold_pct = parse_percent(f, v); }},
    {"--fail-if-slower", kBench, "=PCT", kValue, "PCT",
     "with --bench-baseline: exit 1 when a row is slower beyond PCT\nwith confidence, 3 when a row could not be judged "
     "(one run a side,\ntoo few repetitions, a wide interval) or none was compared; rows\none side lacks are not gated",
     "", "5", [](Options& o, SV f, SV v, bool) { o.fail_if_slower = parse_percent(f, v); }},
    {"--allow-unjudged", kBench, "", kNone, "",
     "with --fail-if-slower: rows the gate could not judge do not fail\nit (the gate line says how many)", "", "",
     [](Options& o, SV, SV, bool) { o.allow_unjudged = true; }},
    {"--bench-format", kBench, "=FORMAT", kValue, "box|md|csv|gbench-json",
     "box (default), md (markdown tables), csv, or gbench-json (Google\nBenchmark's JSON on the standard output, the table on stderr)", "", "md",
     [](Options& o, SV f, SV v, bool) {
         one_of(f, v, {"box", "md", "csv", "gbench-json"});
         o.format = v;
     }},
    {"--color", kBench, "=WHEN", kValue, "auto|always|never",
     "colour in the box table: auto (default: on a terminal, unless\nNO_COLOR is set and not empty), always (also "
     "piped), never",
     "", "never", [](Options& o, SV f, SV v, bool) {
         one_of(f, v, {"auto", "always", "never"});
         o.color = v;
     }},
    {"--bench-html", kBench, "=FILE", kValue, "FILE", "also write a self-contained HTML report (sortable, distributions)",
     "", "r.html", [](Options& o, SV, SV v, bool) { o.html_path = std::string(v); }},
    {"--group-by", kBench, "=KEY,...", kValue, "KEY,...|all|list",
     "one table per label group; =all every key; =list print the keys", "groupBy", "size",
     [](Options& o, SV f, SV v, bool) {
         if (v == "all") o.group_by_all = true;
         else if (v == "list") o.group_by_list = true;
         else o.group_by = split_list(v);
         if (!o.group_by_all && !o.group_by_list && o.group_by.empty()) fail(f, "names no key: --group-by=KEY,...|all|list");
     },
     [](const Options& o) { return o.group_by_all ? Json("all") : strings(o.group_by); }},
    {"--sort-by", kBench, "=[-]COLUMN", kValue, "COLUMN", "name, n, median, mad, min, max, or a metric name (- descending)",
     "sortBy", "-median",
     [](Options& o, SV f, SV v, bool) {
         o.sort_descending = v.front() == '-';
         o.sort_by = o.sort_descending ? v.substr(1) : v;
         if (o.sort_by.empty()) fail(f, "names no column: --sort-by=COLUMN");
     },
     [](const Options& o) { return o.sort_by.empty() ? Json{} : Json((o.sort_descending ? "-" : "") + o.sort_by); }},
    {"--perf", kCounting, "", kNone, "", "hardware-counter pass (Linux perf_event)", "perf", "",
     [](Options& o, SV, SV, bool) { o.perf = true; }, [](const Options& o) { return Json(o.perf); }},
    {"--perf-scaled", kCounting, "", kNone, "", "keep the full group when multiplexed; scaled values render as ≈", "perfScaled",
     "", [](Options& o, SV, SV, bool) { o.perf = o.perf_scaled = true; },
     [](const Options& o) { return Json(o.perf_scaled); }},
    {"--perf-inherit", kCounting, "", kNone, "", "also count threads created after the counters open, and those already running", "perfInherit", "",
     [](Options& o, SV, SV, bool) { o.perf = o.perf_inherit = true; },
     [](const Options& o) { return Json(o.perf_inherit); }},
    {"--perf-iters", kBench, "=N", kValue, "N", "iterations of the counting pass (default: the timing pass's, <= 100000)",
     "perfIters", "100", [](Options& o, SV f, SV v, bool) { o.perf_iters = parse_count_in(f, v, kMaxPassIterations); },
     [](const Options& o) { return count_or_null(o.perf_iters); }},
    {"--perf-batch", kBench, "=N", kValue, "N", "iterations per counting bracket (1: bracket every iteration)", "perfBatch",
     "1", [](Options& o, SV f, SV v, bool) { o.perf_batch = parse_count_in(f, v, kMaxPassIterations); },
     [](const Options& o) { return count_or_null(o.perf_batch); }},
    {"--perf-read", kCounting, "=MODE", kValue, "auto|rdpmc|syscall|compare",
     "how --perf reads its counters: auto (the user-space read when\ngranted, else syscall) | rdpmc (alias user: "
     "the arch's\nuser-space read, x86-64 rdpmc / arm64 user access) | syscall\n(ioctl + read(2)) | compare (both "
     "paths side by side: @rdpmc\nand @syscall columns)",
     "perfRead", "syscall",
     [](Options& o, SV f, SV v, bool) {
         if (v == "auto") o.perf_read = PerfRead::automatic;
         else if (v == "rdpmc" || v == "user") o.perf_read = PerfRead::rdpmc;
         else if (v == "syscall") o.perf_read = PerfRead::syscall;
         else if (v == "compare") o.perf_read = PerfRead::compare;
         else fail(f, "'" + std::string(v) + "' is not one of auto, rdpmc, syscall, compare");
         o.perf = true;
     },
     [](const Options& o) { return Json(perf_read_name(o.perf_read)); }},
    {"--metrics", kCounting, "=LIST", kValue, "LIST|all|?",
     "columns: names, *-globs, all; ? lists the catalog. Events\nbeyond the catalog: raw:r<hex>[:u|:k] (a "
     "PERF_TYPE_RAW config),\npfm:EVENT[:UMASK][:u|:k] (a libpfm4 name), sc:NAME (one syscall);\nrepeatable: "
     "the lists join",
     "metrics", "ipc",
     [](Options& o, SV f, SV v, bool) {
         if (v == "?") o.list_metrics = true;
         const auto items = v == "?" ? std::vector<std::string>{} : split_list(v);
         if (v != "?" && items.empty()) fail(f, "names no metric: --metrics=LIST");
         o.metrics.insert(o.metrics.end(), items.begin(), items.end());
     },
     [](const Options& o) { return strings(o.metrics); }, false, true},
    {"--list-metrics", kAnywhere, "", kNone, "", "print the metric catalog (with or without --bench)", "", "",
     [](Options& o, SV, SV, bool) { o.list_metrics = true; }},
    {"--capabilities", kAnywhere, "", kNone, "", "what this host can count, why not, and the remedy", "", "",
     [](Options& o, SV, SV, bool) { o.capabilities = true; }},
    {"--syscalls", kCounting, "[=NAME,...]", Takes::optional_value, "NAME,...",
     "syscall tracepoint counts: a total, or one column per syscall;\nrepeatable: the lists join", "", "futex,read",
     [](Options& o, SV f, SV v, bool has_value) {
         if (has_value) {
             const auto items = split_list(v);
             if (items.empty()) fail(f, "names no syscall: --syscalls=NAME,...");
             o.syscalls.insert(o.syscalls.end(), items.begin(), items.end());
             if (o.syscalls.size() > 62)
                 fail(f, "names " + std::to_string(o.syscalls.size()) + " syscalls; at most 62 fit one tracepoint group");
         }
         o.syscalls_total = true;
     },
     nullptr, false, true},
    {"--simulate", kCounting, "", kNone, "",
     "re-run under Valgrind's Callgrind: exact simulated instructions,\ncache misses and branch mispredictions per "
     "iteration (sim:*)",
     "simulate", "", [](Options& o, SV, SV, bool) { o.simulate = true; },
     [](const Options& o) { return Json(o.simulate); }},
    {"--per-iteration", kBench, "", kNone, "", "bracket every call with zero-syscall reads; p50/p99 columns", "", "",
     [](Options& o, SV, SV, bool) { o.per_iteration = true; }},
    {"--histogram", kBench, "=GLOB", kValue, "GLOB", "with --per-iteration: a terminal histogram of matching cases", "", "*",
     [](Options& o, SV, SV v, bool) {
         o.histogram = v;
         o.per_iteration = true;
     }},
    {"--pin", kBench, "=CPU|auto", kValue, "CPU|auto", "pin the measuring thread to CPU (auto: the least busy allowed CPU)",
     "", "auto",
     [](Options& o, SV f, SV v, bool) {
         o.pin_auto = v == "auto";
         o.pin_cpu.reset();
         if (!o.pin_auto) o.pin_cpu = parse_index(f, v, "CPU|auto");
     }},
    {"--numa-node", kBench, "=N", kValue, "N", "run on NUMA node N's CPUs with memory bound to node N", "", "0",
     [](Options& o, SV f, SV v, bool) { o.numa_node = parse_index(f, v, "N"); }},
    {"--quiet-environment", kBench, "", kNone, "", "keep environment warnings out of the header (JSON keeps them)", "", "",
     [](Options& o, SV, SV, bool) { o.quiet_environment = true; }},
    {"--isolate", kAnywhere, "", kNone, "",
     "each case in a child process: a crash, exit() or hang becomes\nan error row and the run goes on", "", "",
     [](Options& o, SV, SV, bool) { o.isolate = true; }},
    {"--case-timeout", kAnywhere, "=SECONDS", kValue, "SECONDS",
     "a case running longer is an error row under --isolate, and ends\nthe run (naming it) without (default 300; 0: "
     "no limit)",
     "", "30",
     [](Options& o, SV f, SV v, bool) { o.case_timeout_s = parse_decimal_in(f, v, kCaseTimeoutRange, "SECONDS"); }},
    {"--recover-journal", kAnywhere, "=FILE", kValue, "FILE",
     "turn the journal of a killed run into a --bench-json document\n(to --bench-json=FILE, or the standard output)",
     "", "run.json.journal", [](Options& o, SV, SV v, bool) { o.recover_journal = std::string(v); }},
    {"--profile", kCounting, "[=HZ]", Takes::optional_value, "HZ",
     "after each case's passes, a sampling pass: a flat profile of\nwhere its time goes (default 10000 samples/s: "
     "cycles where a\nPMU exists, else the cpu-clock timer)",
     "", "1000",
     [](Options& o, SV f, SV v, bool has_value) {
         if (has_value) o.profile.hz = parse_count_in(f, v, kMaxProfileHz);
         o.profile.asked = true;
     }},
    {"--profile-samples", kCounting, "=N", kValue, "N", "samples per case (default 2000) ...", "", "500",
     [](Options& o, SV f, SV v, bool) {
         o.profile.samples = parse_count_in(f, v, kMaxProfileSamples);
         o.profile.asked = true;
     }},
    {"--profile-time", kCounting, "=MS", kValue, "MS", "... or this much wall time, whichever comes first (default 1000)", "",
     "100",
     [](Options& o, SV f, SV v, bool) {
         o.profile.time_ms = parse_decimal_in(f, v, kProfileTimeMsRange, "MS (milliseconds)");
         o.profile.asked = true;
     }},
    {"--profile-folded", kCounting, "=FILE", kValue, "FILE", "also write every case's folded stacks (flame-graph input)", "",
     "stacks.folded",
     [](Options& o, SV, SV v, bool) {
         o.profile.folded_path = std::string(v);
         o.profile.asked = true;
     }},
    {"--version", kAnywhere, "", kNone, "", "print glint's version", "", "", [](Options& o, SV, SV, bool) { o.version = true; }},
    {"--help", kAnywhere, "", Takes::anything, "", "this text", "", "", [](Options& o, SV, SV, bool) { o.help = true; }},
    {"--help-markdown", kAnywhere, "", kNone, "", "the flags reference as markdown (docs/flags.md)", "", "",
     [](Options& o, SV, SV, bool) { o.help = o.help_markdown = true; }, nullptr, true},
};

std::string escaped_cell(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '|') out += '\\';
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

}  // namespace

std::span<const OptionRow> option_rows() { return kRows; }

const OptionRow* find_option(std::string_view flag) {
    if (flag == "-h") flag = "--help";
    for (const OptionRow& row : kRows)
        if (row.flag == flag) return &row;
    return nullptr;
}

std::string help_text() {
    std::string out =
        "usage: <bench binary> [flags]\n\nWithout --bench every case runs once as a plain test "
        "(exit 1 "
        "if any fails).\n\n";
    for (const OptionRow& row : kRows) {
        if (row.hidden) continue;
        std::string head = "  " + std::string(row.flag) + std::string(row.shown);
        head.resize(std::max(head.size() + 1, std::size_t{27}), ' ');
        std::string_view help = row.help;
        for (std::size_t end; (end = help.find('\n')) != std::string_view::npos;
             help.remove_prefix(end + 1)) {
            out += head + std::string(help.substr(0, end)) + "\n";
            head = std::string(27, ' ');
        }
        out += head + std::string(help) + "\n";
    }
    return out;
}

std::string flags_markdown() {
    std::string out =
        "# Flags\n\nEvery flag of a glint bench binary. Generated from the option table "
        "(`engine/cli/option_table.cpp`) by `<bench binary> --help-markdown > docs/flags.md`; a "
        "unit test "
        "fails when this file, `--help`, the parser or the JSON knobs disagree with the table.\n\n"
        "Without `--bench` a flag marked *bench* has no effect, and one marked *counting* counts "
        "only in the "
        "informational modes (`--list-metrics`, `--capabilities`, `--group-by=list`); glint notes "
        "either on "
        "stderr.\n\n| flag | meaning | without `--bench` | JSON `meta.knobs` "
        "|\n|---|---|---|---|\n";
    for (const OptionRow& row : kRows) {
        if (row.hidden) continue;
        out += "| `" + escaped_cell(std::string(row.flag) + std::string(row.shown)) + "` | " +
               escaped_cell(row.help) + " | " +
               (row.scope == Scope::bench      ? "bench"
                : row.scope == Scope::counting ? "counting"
                                               : "") +
               " | " +
               (row.knob.empty() ? std::string() : std::string("`").append(row.knob).append("`")) +
               " |\n";
    }
    return out;
}

Json recorded_knobs(const Options& options) {
    Json knobs = Json::object();
    for (const OptionRow& row : kRows)
        if (!row.knob.empty() && row.recorded) knobs[std::string(row.knob)] = row.recorded(options);
    knobs["samples"] = 32;  // the protocol's fixed sample count (engine/timing/protocol.hpp)
    return knobs;
}

}  // namespace glint::engine
