// engine/cli/run_plan.hpp: the command line resolved once into what each part of the run
// takes (parse → plan → execute). Below main nothing sees the flags themselves; each part
// takes the piece of the plan it needs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/compare/compare_report.hpp"
#include "engine/model/json.hpp"
#include "engine/placement/placement.hpp"
#include "engine/tiers/request.hpp"
#include "engine/timing/protocol.hpp"
#include "os/files.hpp"

namespace glint::engine {

// Which cases run, and how each is kept (every mode).
struct CaseRun {
    std::string filter;           // --filter ("" = every case; runner/case_filter.hpp)
    bool isolate = false;         // --isolate: each case in a child process
    double case_timeout_s = 300;  // --case-timeout (0: none)
};

// --bench-min-time's default, in its unit (timing/protocol.hpp says why).
inline constexpr double kDefaultMinTimeMs = kDefaultMinTimeNs / 1e6;

// How a --bench run measures, and how it splits its tables.
struct Measuring {
    double min_time_ms = kDefaultMinTimeMs;  // --bench-min-time
    std::uint64_t repeat = 1;                // --bench-repeat: interleaved repetitions
    std::vector<std::string> group_by;       // --group-by=KEY,...
    bool group_by_all = false;               // --group-by=all (keys expand at run time)
};

// How the tables (and the comparison after them) print.
struct TableLayout {
    std::string format = "box";  // --bench-format=box|md|csv
    std::string sort_by;         // --sort-by ("" = measurement order)
    bool sort_descending = false;
    std::string color = "auto";  // --color=auto|always|never (engine/report/color.hpp)
};

// The files a run writes besides its tables: resolved and probed writable (a --bench run's
// targets only when --bench is given), no two the same file, none a --bench-baseline input.
struct OutputFiles {
    std::optional<std::string> json_path;  // --bench-json (also --recover-journal's output)
    bool json_all_samples = false;         // --bench-json-samples=all
    std::optional<std::string> html_path;  // --bench-html
    std::string folded_path;               // --profile-folded ("" = none)
    std::optional<os::OutputTarget> json, html, folded;
    // One of them is the standard output: the table goes to stderr instead.
    bool stdout_taken = false;
};

// --bench-baseline and its verdicts.
struct BaselineSettings {
    std::optional<std::string> baseline_path;  // --bench-baseline
    // --threshold and --fail-if-slower as fractions; rows only the base has hidden under --filter.
    CompareReportOptions compare;
};

// What the run does, in precedence order.
enum class RunMode {
    help,
    version,
    recover_journal,
    group_keys,
    list,
    plain,
    capabilities,
    list_metrics,
    bench
};

struct RunPlan {
    RunMode mode = RunMode::plain;
    bool help_markdown = false;  // with RunMode::help: the flags reference instead
    bool bench =
        false;  // --bench given (the outputs and the baseline are checked in any mode then)
    CaseRun cases;
    Measuring measuring;
    TableLayout table;
    OutputFiles outputs;
    BaselineSettings comparison;
    TierRequest tiers;
    PlacementRequest placement;
    bool quiet_environment = false;              // --quiet-environment
    bool list_json = false;                      // --list --format=json
    std::optional<std::string> recover_journal;  // --recover-journal
    Json knobs = Json::object();                 // the knobs JSON meta records
    std::vector<std::string> notes;              // flags that do nothing in this mode
};

}  // namespace glint::engine
