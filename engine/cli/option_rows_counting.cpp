// engine/cli/option_rows_counting.cpp: the option table's rows for the flags of the counting passes
// (hardware counters, syscalls, simulation) and the profile, in --help's order (a row's contract:
// option_table.hpp).
#include "engine/cli/option_rows.hpp"
#include "engine/cli/option_values.hpp"
#include "engine/cli/ranges.hpp"

namespace glint::engine {
namespace {

using namespace option_rows_shorthand;

const OptionRow kCountingRows[] = {
    {.flag = "--perf",
     .scope = kCounting,
     .takes = kNone,
     .help = "hardware-counter pass (Linux perf_event)",
     .knob = "perf",
     .store = [](Options& o, SV, SV, bool) { o.perf = true; },
     .recorded = [](const Options& o) { return Json(o.perf); }},
    {.flag = "--perf-scaled",
     .scope = kCounting,
     .takes = kNone,
     .help = "keep the full group when multiplexed; scaled values render as ≈",
     .knob = "perfScaled",
     .store = [](Options& o, SV, SV, bool) { o.perf = o.perf_scaled = true; },
     .recorded = [](const Options& o) { return Json(o.perf_scaled); }},
    {.flag = "--perf-inherit",
     .scope = kCounting,
     .takes = kNone,
     .help = "also count threads created after the counters open, and those already running",
     .knob = "perfInherit",
     .store = [](Options& o, SV, SV, bool) { o.perf = o.perf_inherit = true; },
     .recorded = [](const Options& o) { return Json(o.perf_inherit); }},
    {.flag = "--perf-iters",
     .scope = kBench,
     .shown = "=N",
     .takes = kValue,
     .form = "N",
     .help = "iterations of the counting pass (default: the timing pass's, <= 100000)",
     .knob = "perfIters",
     .example = "100",
     .store = [](Options& o, SV f, SV v,
                 bool) { o.perf_iters = parse_count_in(f, v, kMaxPassIterations); },
     .recorded = [](const Options& o) { return json_count_or_null(o.perf_iters); }},
    {.flag = "--perf-batch",
     .scope = kBench,
     .shown = "=N",
     .takes = kValue,
     .form = "N",
     .help = "iterations per counting bracket (1: bracket every iteration)",
     .knob = "perfBatch",
     .example = "1",
     .store = [](Options& o, SV f, SV v,
                 bool) { o.perf_batch = parse_count_in(f, v, kMaxPassIterations); },
     .recorded = [](const Options& o) { return json_count_or_null(o.perf_batch); }},
    {.flag = "--perf-read",
     .scope = kCounting,
     .shown = "=MODE",
     .takes = kValue,
     .form = "auto|rdpmc|syscall|compare",
     .help = "how --perf reads its counters: auto (the user-space read when\n"
             "granted, else syscall) | rdpmc (alias user: the arch's\n"
             "user-space read, x86-64 rdpmc / arm64 user access) | syscall\n"
             "(ioctl + read(2)) | compare (both paths side by side: @rdpmc\n"
             "and @syscall columns)",
     .knob = "perfRead",
     .example = "syscall",
     .store =
         [](Options& o, SV f, SV v, bool) {
             if (v == "auto") o.perf_read = PerfRead::automatic;
             else if (v == "rdpmc" || v == "user") o.perf_read = PerfRead::rdpmc;
             else if (v == "syscall") o.perf_read = PerfRead::syscall;
             else if (v == "compare") o.perf_read = PerfRead::compare;
             else
                 fail_flag(f,
                           "'" + std::string(v) + "' is not one of auto, rdpmc, syscall, compare");
             o.perf = true;
         },
     .recorded = [](const Options& o) { return Json(perf_read_name(o.perf_read)); }},
    {.flag = "--metrics",
     .scope = kCounting,
     .shown = "=LIST",
     .takes = kValue,
     .form = "LIST|all|?",
     .help = "columns: names, *-globs, all; ? lists the catalog. Events\n"
             "beyond the catalog: raw:r<hex>[:u|:k] (a PERF_TYPE_RAW config),\n"
             "pfm:EVENT[:UMASK][:u|:k] (a libpfm4 name), sc:NAME (one syscall);\n"
             "repeatable: the lists join",
     .knob = "metrics",
     .example = "ipc",
     .store =
         [](Options& o, SV f, SV v, bool) {
             if (v == "?") o.list_metrics = true;
             const auto items = v == "?" ? std::vector<std::string>{} : split_list(v);
             if (v != "?" && items.empty()) fail_flag(f, "names no metric: --metrics=LIST");
             o.metrics.insert(o.metrics.end(), items.begin(), items.end());
         },
     .recorded = [](const Options& o) { return json_strings(o.metrics); },
     .repeatable = true},
    {.flag = "--list-metrics",
     .scope = kAnywhere,
     .takes = kNone,
     .help = "print the metric catalog (with or without --bench)",
     .store = [](Options& o, SV, SV, bool) { o.list_metrics = true; }},
    {.flag = "--capabilities",
     .scope = kAnywhere,
     .takes = kNone,
     .help = "what this host can count, why not, and the remedy",
     .store = [](Options& o, SV, SV, bool) { o.capabilities = true; }},
    {.flag = "--syscalls",
     .scope = kCounting,
     .shown = "[=NAME,...]",
     .takes = Takes::optional_value,
     .form = "NAME,...",
     .help = "syscall tracepoint counts: a total, or one column per syscall;\n"
             "repeatable: the lists join",
     .example = "futex,read",
     .store =
         [](Options& o, SV f, SV v, bool has_value) {
             if (has_value) {
                 const auto items = split_list(v);
                 if (items.empty()) fail_flag(f, "names no syscall: --syscalls=NAME,...");
                 o.syscalls.insert(o.syscalls.end(), items.begin(), items.end());
                 if (o.syscalls.size() > 62)
                     fail_flag(f, "names " + std::to_string(o.syscalls.size()) +
                                      " syscalls; at most 62 fit one tracepoint group");
             }
             o.syscalls_total = true;
         },
     .repeatable = true},
    {.flag = "--simulate",
     .scope = kCounting,
     .takes = kNone,
     .help = "re-run under Valgrind's Callgrind: exact simulated instructions,\n"
             "cache misses and branch mispredictions per iteration (sim:*)",
     .knob = "simulate",
     .store = [](Options& o, SV, SV, bool) { o.simulate = true; },
     .recorded = [](const Options& o) { return Json(o.simulate); }},
    {.flag = "--profile",
     .scope = kCounting,
     .shown = "[=HZ]",
     .takes = Takes::optional_value,
     .form = "HZ",
     .help = "after each case's passes, a sampling pass: a flat profile of\n"
             "where its time goes (default 10000 samples/s: cycles where a\n"
             "PMU exists, else the cpu-clock timer)",
     .example = "1000",
     .store =
         [](Options& o, SV f, SV v, bool has_value) {
             if (has_value) o.profile.hz = parse_count_in(f, v, kMaxProfileHz);
             o.profile.asked = true;
         }},
    {.flag = "--profile-samples",
     .scope = kCounting,
     .shown = "=N",
     .takes = kValue,
     .form = "N",
     .help = "samples per case (default 2000) ...",
     .example = "500",
     .store =
         [](Options& o, SV f, SV v, bool) {
             o.profile.samples = parse_count_in(f, v, kMaxProfileSamples);
             o.profile.asked = true;
         }},
    {.flag = "--profile-time",
     .scope = kCounting,
     .shown = "=MS",
     .takes = kValue,
     .form = "MS",
     .help = "... or this much wall time, whichever comes first (default 1000)",
     .example = "100",
     .store =
         [](Options& o, SV f, SV v, bool) {
             o.profile.time_ms = parse_decimal_in(f, v, kProfileTimeMsRange, "MS (milliseconds)");
             o.profile.asked = true;
         }},
    {.flag = "--profile-folded",
     .scope = kCounting,
     .shown = "=FILE",
     .takes = kValue,
     .form = "FILE",
     .help = "also write every case's folded stacks (flame-graph input)",
     .example = "stacks.folded",
     .store =
         [](Options& o, SV, SV v, bool) {
             o.profile.folded_path = std::string(v);
             o.profile.asked = true;
         }},
};

}  // namespace

std::span<const OptionRow> counting_option_rows() { return kCountingRows; }

}  // namespace glint::engine
