#include "engine/cli/options.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string_view>

#include "engine/cli/ranges.hpp"

namespace glint::engine {
namespace {


std::vector<std::string> split_list(std::string_view text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string_view::npos) comma = text.size();
        std::string item(text.substr(start, comma - start));
        if (!item.empty()) items.push_back(std::move(item));
        start = comma + 1;
    }
    return items;
}

[[noreturn]] void fail(std::string_view flag, const std::string& what) {
    throw UsageError(std::string(flag) + ": " + what);
}

// A CPU or node number: 0 is a valid one.
unsigned parse_index(std::string_view flag, std::string_view value, std::string_view form) {
    std::string text(value);
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        fail(flag, "'" + text + "' is not a number; expected " + std::string(flag) + "=" + std::string(form));
    errno = 0;
    const unsigned long long n = std::strtoull(text.c_str(), nullptr, 10);
    if (errno != 0 || n > kMaxCpuOrNode)
        fail(flag, text + " is out of range (0 to " + std::to_string(kMaxCpuOrNode) + ")");
    return static_cast<unsigned>(n);
}

}  // namespace

Options parse_options(std::span<const char* const> args) {
    Options o;
    bool format_given = false;
    for (const char* raw : args) {
        std::string_view arg(raw);
        std::string_view name = arg;
        std::string_view value;
        bool has_value = false;
        if (auto eq = arg.find('='); eq != std::string_view::npos) {
            name = arg.substr(0, eq);
            value = arg.substr(eq + 1);
            has_value = true;
        }
        auto need_value = [&](std::string_view form) {
            if (!has_value || value.empty())
                fail(name, "needs a value: " + std::string(name) + "=" + std::string(form));
        };
        auto no_value = [&] {
            if (has_value) fail(name, "takes no value");
        };
        o.given.emplace_back(name);

        if (name == "--bench") {
            no_value();
            o.bench = true;
        } else if (name == "--filter") {
            need_value("GLOB");
            o.filter = value;
        } else if (name == "--bench-min-time") {
            need_value("MS");
            o.min_time_ms = parse_decimal_in(name, value, kMinTimeMsRange, "MS (milliseconds)");
        } else if (name == "--bench-json") {
            need_value("FILE");
            o.json_path = std::string(value);
        } else if (name == "--bench-json-samples") {
            need_value("thinned|all");
            if (value != "thinned" && value != "all")
                fail(name, "'" + std::string(value) + "' is not one of thinned, all");
            o.json_all_samples = value == "all";
        } else if (name == "--bench-baseline") {
            need_value("FILE");
            o.baseline_path = std::string(value);
        } else if (name == "--bench-repeat") {
            need_value("N");
            o.repeat = parse_count_in(name, value, kMaxRepetitions);
        } else if (name == "--fail-if-slower") {
            need_value("PCT");
            o.fail_if_slower = parse_percent(name, value);
        } else if (name == "--threshold") {
            need_value("PCT");
            o.threshold_pct = parse_percent(name, value);
        } else if (name == "--bench-format") {
            need_value("box|md|csv");
            if (value != "box" && value != "md" && value != "csv")
                fail(name, "'" + std::string(value) + "' is not one of box, md, csv");
            o.format = value;
        } else if (name == "--bench-html") {
            need_value("FILE");
            o.html_path = std::string(value);
        } else if (name == "--group-by") {
            need_value("KEY,...|all|list");
            if (value == "all") o.group_by_all = true;
            else if (value == "list") o.group_by_list = true;
            else o.group_by = split_list(value);
            if (!o.group_by_all && !o.group_by_list && o.group_by.empty())
                fail(name, "names no key: --group-by=KEY,...|all|list");
        } else if (name == "--sort-by") {
            need_value("COLUMN");
            o.sort_descending = value.front() == '-';
            o.sort_by = o.sort_descending ? value.substr(1) : value;
            if (o.sort_by.empty()) fail(name, "names no column: --sort-by=COLUMN");
        } else if (name == "--perf") {
            no_value();
            o.perf = true;
        } else if (name == "--perf-scaled") {
            no_value();
            o.perf = o.perf_scaled = true;
        } else if (name == "--perf-inherit") {
            no_value();
            o.perf = o.perf_inherit = true;
        } else if (name == "--perf-iters") {
            need_value("N");
            o.perf_iters = parse_count_in(name, value, kMaxPassIterations);
        } else if (name == "--perf-batch") {
            need_value("N");
            o.perf_batch = parse_count_in(name, value, kMaxPassIterations);
        } else if (name == "--perf-read") {
            need_value("auto|rdpmc|syscall|compare");
            if (value == "auto") o.perf_read = PerfRead::automatic;
            else if (value == "rdpmc" || value == "user") o.perf_read = PerfRead::rdpmc;
            else if (value == "syscall") o.perf_read = PerfRead::syscall;
            else if (value == "compare") o.perf_read = PerfRead::compare;
            else fail(name, "'" + std::string(value) + "' is not one of auto, rdpmc, syscall, compare");
            o.perf = true;
        } else if (name == "--metrics") {
            need_value("LIST|all|?");
            if (value == "?") o.list_metrics = true;
            else o.metrics = split_list(value);
            if (!o.list_metrics && o.metrics.empty()) fail(name, "names no metric: --metrics=LIST");
        } else if (name == "--list-metrics") {
            no_value();
            o.list_metrics = true;
        } else if (name == "--capabilities") {
            no_value();
            o.capabilities = true;
        } else if (name == "--syscalls") {
            if (has_value) {
                o.syscalls = split_list(value);
                if (o.syscalls.empty()) fail(name, "names no syscall: --syscalls=NAME,...");
                if (o.syscalls.size() > 62)
                    fail(name, "names " + std::to_string(o.syscalls.size()) +
                                   " syscalls; at most 62 fit one tracepoint group");
            }
            o.syscalls_total = true;
        } else if (name == "--per-iteration") {
            no_value();
            o.per_iteration = true;
        } else if (name == "--histogram") {
            need_value("GLOB");
            o.histogram = value;
            o.per_iteration = true;
        } else if (name == "--list") {
            no_value();
            o.list = true;
        } else if (name == "--format") {
            need_value("text|json");
            if (value == "json") o.list_json = true;
            else if (value != "text") fail(name, "'" + std::string(value) + "' is not one of text, json");
            format_given = true;
        } else if (name == "--version") {
            no_value();
            o.version = true;
        } else if (name == "--pin") {
            need_value("CPU|auto");
            if (value == "auto") {
                o.pin_auto = true;
                o.pin_cpu.reset();
            } else {
                o.pin_cpu = parse_index(name, value, "CPU|auto");
                o.pin_auto = false;
            }
        } else if (name == "--numa-node") {
            need_value("N");
            o.numa_node = parse_index(name, value, "N");
        } else if (name == "--quiet-environment") {
            no_value();
            o.quiet_environment = true;
        } else if (name == "--isolate") {
            no_value();
            o.isolate = true;
        } else if (name == "--case-timeout") {
            need_value("SECONDS");
            o.case_timeout_s = parse_decimal_in(name, value, kCaseTimeoutRange, "SECONDS");
        } else if (name == "--recover-journal") {
            need_value("FILE");
            o.recover_journal = std::string(value);
        } else if (name == "--profile") {
            if (has_value) o.profile.hz = parse_count_in(name, value, kMaxProfileHz);
            o.profile.asked = true;
        } else if (name == "--profile-samples") {
            need_value("N");
            o.profile.samples = parse_count_in(name, value, kMaxProfileSamples);
            o.profile.asked = true;
        } else if (name == "--profile-time") {
            need_value("MS");
            o.profile.time_ms = parse_decimal_in(name, value, kProfileTimeMsRange, "MS (milliseconds)");
            o.profile.asked = true;
        } else if (name == "--profile-folded") {
            need_value("FILE");
            o.profile.folded_path = std::string(value);
            o.profile.asked = true;
        } else if (name == "--help" || name == "-h") {
            o.help = true;
        } else {
            throw UsageError("unknown flag '" + std::string(arg) + "'; see --help");
        }
    }
    if (format_given && !o.list) fail("--format", "applies to --list only: --list --format=json");
    return o;
}

TierRequest tier_request(const Options& o) {
    TierRequest r;
    r.metrics = o.metrics;
    r.every_tier = o.list_metrics;
    r.perf = PerfRequest{o.perf || o.perf_scaled || o.perf_read != PerfRead::automatic,
                         o.perf_scaled, o.perf_inherit, o.perf_read};
    r.syscalls = SyscallRequest{o.syscalls_total, o.syscalls};
    r.per_iteration = PerIterationRequest{o.per_iteration, o.histogram};
    r.sizing = PassSizing{o.perf_iters, o.perf_batch};
    r.profile = o.profile;
    return r;
}

PlacementRequest placement_request(const Options& o) {
    PlacementRequest r;
    if (o.pin_auto) r.pin = PlacementRequest::Pin::automatic;
    if (o.pin_cpu) {
        r.pin = PlacementRequest::Pin::cpu;
        r.cpu = *o.pin_cpu;
    }
    r.numa_node = o.numa_node;
    return r;
}

const char* usage_text() {
    return R"(usage: <bench binary> [flags]

Without --bench every case runs once as a plain test (exit 1 if any fails).

  --bench                  measure: timing pass, counting passes, the table
  --filter=TERM,...        select cases: GLOB over registration or registration/case,
                           KEY=GLOB over a label, -TERM to exclude (names or-ed, label
                           keys and-ed: --filter='copy/*,size=4KiB,-*/slow')
  --list                   list the selected cases with their labels; nothing runs
  --format=json            with --list: the listing as JSON
  --bench-min-time=MS      per-sample target of the iteration doubling (default 5);
                           for per-call cases, the minimum total measured time
  --bench-json=FILE        also write the run as JSON (schema 2); - is the standard
                           output (the table then goes to stderr)
  --bench-json-samples=all keep every sample in the JSON (default: thinned, 256 a row at most)
  --bench-baseline=FILE    compare with an earlier --bench-json: median change in % (vs base)
                           and, after the tables, glint-compare's verdict per row
  --bench-repeat=N         measure every case N times, interleaved (A, B, C, A, B, C, ...);
                           verdicts need 4 or more per side (default 1, at most 1000)
  --threshold=PCT          with --bench-baseline: a change within ±PCT reads "same" (default 3)
  --fail-if-slower=PCT     with --bench-baseline: exit 1 when a row is slower beyond PCT
                           with confidence
  --bench-format=FORMAT    box (default), md (markdown tables) or csv
  --bench-html=FILE        also write a self-contained HTML report (sortable, distributions)
  --group-by=KEY,...       one table per label group; =all every key; =list print the keys
  --sort-by=[-]COLUMN      name, n, median, mad, min, max, or a metric name (- descending)
  --perf                   hardware-counter pass (Linux perf_event)
  --perf-scaled            keep the full group when multiplexed; scaled values render as ≈
  --perf-inherit           also count threads created after the counters open
  --perf-iters=N           iterations of the counting pass (default: the timing pass's, <= 100000)
  --perf-batch=N           iterations per counting bracket (1: bracket every iteration)
  --perf-read=MODE         how --perf reads its counters: auto (the user-space read when
                           granted, else syscall) | rdpmc (alias user: the arch's
                           user-space read, x86-64 rdpmc / arm64 user access) | syscall
                           (ioctl + read(2)) | compare (both paths side by side: @rdpmc
                           and @syscall columns)
  --metrics=LIST           columns: names, *-globs, all; ? lists the catalog. Events
                           beyond the catalog: raw:r<hex>[:u|:k] (a PERF_TYPE_RAW config),
                           pfm:EVENT[:UMASK][:u|:k] (a libpfm4 name), sc:NAME (one syscall)
  --list-metrics           print the metric catalog (with or without --bench)
  --capabilities           what this host can count, why not, and the remedy
  --syscalls[=NAME,...]    syscall tracepoint counts: a total, or one column per syscall
  --per-iteration          bracket every call with zero-syscall reads; p50/p99 columns
  --histogram=GLOB         with --per-iteration: a terminal histogram of matching cases
  --pin=CPU|auto           pin the measuring thread to CPU (auto: the least busy allowed CPU)
  --numa-node=N            run on NUMA node N's CPUs with memory bound to node N
  --quiet-environment      keep environment warnings out of the header (JSON keeps them)
  --isolate                each case in a child process: a crash, exit() or hang becomes
                           an error row and the run goes on
  --case-timeout=SECONDS   a case running longer is an error row under --isolate, and ends
                           the run (naming it) without (default 300; 0: no limit)
  --recover-journal=FILE   turn the journal of a killed run into a --bench-json document
                           (to --bench-json=FILE, or the standard output)
  --profile[=HZ]           after each case's passes, a sampling pass: a flat profile of
                           where its time goes (default 10000 samples/s: cycles where a
                           PMU exists, else the cpu-clock timer)
  --profile-samples=N      samples per case (default 2000) ...
  --profile-time=MS        ... or this much wall time, whichever comes first (default 1000)
  --profile-folded=FILE    also write every case's folded stacks (flame-graph input)
  --version                print glint's version
  --help                   this text
)";
}

}  // namespace glint::engine
