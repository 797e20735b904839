// engine/cli/option_rows_output.cpp: the option table's rows for the flags that choose what a run
// writes, and what it is compared with and gated on, in --help's order (a row's contract:
// option_table.hpp).
#include "engine/cli/option_rows.hpp"
#include "engine/cli/option_values.hpp"
#include "engine/cli/ranges.hpp"

namespace glint::engine {
namespace {

using namespace option_rows_shorthand;

const OptionRow kOutputRows[] = {
    {.flag = "--bench-json",
     .scope = kBench,
     .shown = "=FILE",
     .takes = kValue,
     .form = "FILE",
     .help = "also write the run as JSON (schema 2); - is the standard\n"
             "output (the table then goes to stderr)",
     .example = "-",
     .store = [](Options& o, SV, SV v, bool) { o.json_path = std::string(v); }},
    {.flag = "--bench-json-samples",
     .scope = kBench,
     .shown = "=all",
     .takes = kValue,
     .form = "thinned|all",
     .help = "keep every sample in the JSON (default: thinned, 256 a row at most)",
     .example = "all",
     .store =
         [](Options& o, SV f, SV v, bool) {
             require_one_of(f, v, {"thinned", "all"});
             o.json_all_samples = v == "all";
         }},
    {.flag = "--bench-format",
     .scope = kBench,
     .shown = "=FORMAT",
     .takes = kValue,
     .form = "box|md|csv|gbench-json",
     .help = "box (default), md (markdown tables), csv, or gbench-json (Google\n"
             "Benchmark's JSON on the standard output, the table on stderr)",
     .example = "md",
     .store =
         [](Options& o, SV f, SV v, bool) {
             require_one_of(f, v, {"box", "md", "csv", "gbench-json"});
             o.table.format = v;
         }},
    {.flag = "--color",
     .scope = kBench,
     .shown = "=WHEN",
     .takes = kValue,
     .form = "auto|always|never",
     .help = "colour in the box table: auto (default: on a terminal, unless\n"
             "NO_COLOR is set and not empty), always (also piped), never",
     .example = "never",
     .store =
         [](Options& o, SV f, SV v, bool) {
             require_one_of(f, v, {"auto", "always", "never"});
             o.table.color = v;
         }},
    {.flag = "--bench-html",
     .scope = kBench,
     .shown = "=FILE",
     .takes = kValue,
     .form = "FILE",
     .help = "also write a self-contained HTML report (sortable, distributions)",
     .example = "r.html",
     .store = [](Options& o, SV, SV v, bool) { o.html_path = std::string(v); }},
    {.flag = "--group-by",
     .scope = kBench,
     .shown = "=KEY,...",
     .takes = kValue,
     .form = "KEY,...|all|list",
     .help = "one table per label group; =all every key; =list print the keys",
     .knob = "groupBy",
     .example = "size",
     .store =
         [](Options& o, SV f, SV v, bool) {
             if (v == "all") o.measuring.group_by_all = true;
             else if (v == "list") o.group_by_list = true;
             else o.measuring.group_by = split_list(v);
             if (!o.measuring.group_by_all && !o.group_by_list && o.measuring.group_by.empty())
                 fail_flag(f, "names no key: --group-by=KEY,...|all|list");
         },
     .recorded =
         [](const Options& o) {
             return o.measuring.group_by_all ? Json("all") : json_strings(o.measuring.group_by);
         }},
    {.flag = "--sort-by",
     .scope = kBench,
     .shown = "=[-]COLUMN",
     .takes = kValue,
     .form = "COLUMN",
     .help = "name, n, median, mad, min, max, or a metric name (- descending)",
     .knob = "sortBy",
     .example = "-median",
     .store =
         [](Options& o, SV f, SV v, bool) {
             o.table.sort_descending = v.front() == '-';
             o.table.sort_by = o.table.sort_descending ? v.substr(1) : v;
             if (o.table.sort_by.empty()) fail_flag(f, "names no column: --sort-by=COLUMN");
         },
     .recorded =
         [](const Options& o) {
             return o.table.sort_by.empty()
                        ? Json{}
                        : Json((o.table.sort_descending ? "-" : "") + o.table.sort_by);
         }},
    {.flag = "--quiet-environment",
     .scope = kBench,
     .takes = kNone,
     .help = "keep environment warnings out of the header (JSON keeps them)",
     .store = [](Options& o, SV, SV, bool) { o.quiet_environment = true; }},
    {.flag = "--bench-baseline",
     .scope = kBench,
     .shown = "=FILE",
     .takes = kValue,
     .form = "FILE",
     .help = "compare with an earlier --bench-json: change in %, signed (vs base)\n"
             "and, after the tables, glint-compare's verdict per row",
     .example = "base.json",
     .store = [](Options& o, SV, SV v, bool) { o.baseline_path = std::string(v); }},
    {.flag = "--threshold",
     .scope = kBench,
     .shown = "=PCT",
     .takes = kValue,
     .form = "PCT",
     .help = "with --bench-baseline: a change within ±PCT reads \"same\" (default 3)",
     .example = "5",
     .store = [](Options& o, SV f, SV v, bool) { o.threshold_pct = parse_percent(f, v); }},
    {.flag = "--fail-if-slower",
     .scope = kBench,
     .shown = "=PCT",
     .takes = kValue,
     .form = "PCT",
     .help = "with --bench-baseline: exit 1 when a row is slower beyond PCT\n"
             "with confidence, 3 when a row could not be judged (one run a side,\n"
             "too few repetitions, a wide interval) or none was compared; rows\n"
             "one side lacks are not gated",
     .example = "5",
     .store = [](Options& o, SV f, SV v, bool) { o.fail_if_slower = parse_percent(f, v); }},
    {.flag = "--allow-unjudged",
     .scope = kBench,
     .takes = kNone,
     .help = "with --fail-if-slower: rows the gate could not judge do not fail\n"
             "it (the gate line says how many)",
     .store = [](Options& o, SV, SV, bool) { o.allow_unjudged = true; }},
    {.flag = "--recover-journal",
     .scope = kAnywhere,
     .shown = "=FILE",
     .takes = kValue,
     .form = "FILE",
     .help = "turn the journal of a killed run into a --bench-json document\n"
             "(to --bench-json=FILE, or the standard output)",
     .example = "run.json.journal",
     .store = [](Options& o, SV, SV v, bool) { o.recover_journal = std::string(v); }},
};

}  // namespace

std::span<const OptionRow> output_option_rows() { return kOutputRows; }

}  // namespace glint::engine
