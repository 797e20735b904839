// engine/cli/option_rows_run.cpp: the option table's rows for the flags that choose what runs and
// how it is measured (and --version, --help), in --help's order (a row's contract:
// option_table.hpp).
#include "engine/cli/option_rows.hpp"
#include "engine/cli/option_values.hpp"
#include "engine/cli/ranges.hpp"

namespace glint::engine {
namespace {

using namespace option_rows_shorthand;

const OptionRow kRunRows[] = {
    {.flag = "--bench",
     .scope = kAnywhere,
     .takes = kNone,
     .help = "measure: timing pass, counting passes, the table",
     .store = [](Options& o, SV, SV, bool) { o.bench = true; }},
    {.flag = "--filter",
     .scope = kAnywhere,
     .shown = "=TERM,...",
     .takes = kValue,
     .form = "GLOB",
     .help = "select cases: a name as --list prints it, or its start up to\n"
             "/ # [ or , ('split', 'copy/memcpy [size=64'; GLOBs too),\n"
             "KEY=GLOB over a label, -TERM to exclude (names or-ed, label\n"
             "keys and-ed: --filter='copy/*,size=4KiB,-*/slow')",
     .knob = "filter",
     .example = "a*",
     .store = [](Options& o, SV, SV v, bool) { o.cases.filter = v; },
     .recorded =
         [](const Options& o) { return o.cases.filter.empty() ? Json{} : Json(o.cases.filter); }},
    {.flag = "--list",
     .scope = kAnywhere,
     .takes = kNone,
     .help = "list the selected cases with their labels; nothing runs",
     .store = [](Options& o, SV, SV, bool) { o.list = true; }},
    {.flag = "--format",
     .scope = kAnywhere,
     .shown = "=json",
     .takes = kValue,
     .form = "text|json",
     .help = "with --list: the listing as JSON",
     .example = "json",
     .store =
         [](Options& o, SV f, SV v, bool) {
             require_one_of(f, v, {"text", "json"});
             if (v == "json") o.list_json = true;
         }},
    {.flag = "--bench-min-time",
     .scope = kBench,
     .shown = "=MS",
     .takes = kValue,
     .form = "MS",
     .help = "per-sample target of the iteration doubling (default 0.25);\n"
             "per-call cases measure at least 20x that in total",
     .knob = "minTimeMs",
     .example = "2",
     .store =
         [](Options& o, SV f, SV v, bool) {
             o.measuring.min_time_ms = parse_decimal_in(f, v, kMinTimeMsRange, "MS (milliseconds)");
         },
     .recorded = [](const Options& o) { return Json(o.measuring.min_time_ms); }},
    {.flag = "--bench-repeat",
     .scope = kBench,
     .shown = "=N",
     .takes = kValue,
     .form = "N",
     .help = "measure every case N times, interleaved (A, B, C, A, B, C, ...);\n"
             "verdicts need 4 or more per side (default 1, at most 1000)",
     .knob = "repetitions",
     .example = "3",
     .store = [](Options& o, SV f, SV v,
                 bool) { o.measuring.repeat = parse_count_in(f, v, kMaxRepetitions); },
     .recorded = [](const Options& o) { return Json(o.measuring.repeat); }},
    {.flag = "--per-iteration",
     .scope = kBench,
     .takes = kNone,
     .help = "bracket every call with zero-syscall reads; p50/p99 columns",
     .store = [](Options& o, SV, SV, bool) { o.per_iteration = true; }},
    {.flag = "--histogram",
     .scope = kBench,
     .shown = "=GLOB",
     .takes = kValue,
     .form = "GLOB",
     .help = "with --per-iteration: a terminal histogram of matching cases",
     .example = "*",
     .store =
         [](Options& o, SV, SV v, bool) {
             o.histogram = v;
             o.per_iteration = true;
         }},
    {.flag = "--pin",
     .scope = kBench,
     .shown = "=CPU|auto",
     .takes = kValue,
     .form = "CPU|auto",
     .help = "pin the measuring thread to CPU (auto: the least busy allowed CPU)",
     .example = "auto",
     .store =
         [](Options& o, SV f, SV v, bool) {
             o.pin_auto = v == "auto";
             o.pin_cpu.reset();
             if (!o.pin_auto) o.pin_cpu = parse_cpu_or_node(f, v, "CPU|auto");
         }},
    {.flag = "--numa-node",
     .scope = kBench,
     .shown = "=N",
     .takes = kValue,
     .form = "N",
     .help = "run on NUMA node N's CPUs with memory bound to node N",
     .example = "0",
     .store = [](Options& o, SV f, SV v, bool) { o.numa_node = parse_cpu_or_node(f, v, "N"); }},
    {.flag = "--isolate",
     .scope = kAnywhere,
     .takes = kNone,
     .help = "each case in a child process: a crash, exit() or hang becomes\n"
             "an error row and the run goes on",
     .store = [](Options& o, SV, SV, bool) { o.cases.isolate = true; }},
    {.flag = "--case-timeout",
     .scope = kAnywhere,
     .shown = "=SECONDS",
     .takes = kValue,
     .form = "SECONDS",
     .help = "a case running longer is an error row under --isolate, and ends\n"
             "the run (naming it) without (default 300; 0: no limit)",
     .example = "30",
     .store =
         [](Options& o, SV f, SV v, bool) {
             o.cases.case_timeout_s = parse_decimal_in(f, v, kCaseTimeoutRange, "SECONDS");
         }},
};
const OptionRow kAboutRows[] = {
    {.flag = "--version",
     .scope = kAnywhere,
     .takes = kNone,
     .help = "print glint's version",
     .store = [](Options& o, SV, SV, bool) { o.version = true; }},
    {.flag = "--help",
     .scope = kAnywhere,
     .takes = Takes::anything,
     .help = "this text",
     .store = [](Options& o, SV, SV, bool) { o.help = true; }},
    {.flag = "--help-markdown",
     .scope = kAnywhere,
     .takes = kNone,
     .help = "the flags reference as markdown (docs/flags.md)",
     .store = [](Options& o, SV, SV, bool) { o.help = o.help_markdown = true; },
     .hidden = true},
};

}  // namespace

std::span<const OptionRow> run_option_rows() { return kRunRows; }
std::span<const OptionRow> about_option_rows() { return kAboutRows; }

}  // namespace glint::engine
