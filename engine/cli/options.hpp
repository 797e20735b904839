// engine/cli/options.hpp: every command-line flag, parsed once (by the rows of
// engine/cli/option_table.hpp), validated before anything is measured. A bad flag is a
// UsageError whose message names the flag and the fix (exit 2).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cli/run_plan.hpp"
#include "engine/model/flag_value.hpp"  // UsageError, parse_percent
#include "engine/placement/placement.hpp"
#include "engine/tiers/request.hpp"

namespace glint::engine {

struct Options {
    bool bench = false;  // --bench: measure (otherwise: run each case once)
    // Flags stored straight into the plan's parts (run_plan.hpp): --filter, --isolate,
    // --case-timeout; --bench-min-time, --bench-repeat, --group-by; --bench-format, --sort-by,
    // --color.
    CaseRun cases;
    Measuring measuring;
    TableLayout table;
    std::optional<std::string> json_path;      // --bench-json=FILE
    bool json_all_samples = false;             // --bench-json-samples=all (default: thinned)
    std::optional<std::string> baseline_path;  // --bench-baseline=FILE
    std::optional<double> fail_if_slower;      // --fail-if-slower=PCT (needs --bench-baseline)
    bool allow_unjudged = false;               // --allow-unjudged (needs --fail-if-slower)
    double threshold_pct = 3.0;                // --threshold=PCT: the verdicts' practical threshold
    std::optional<std::string> html_path;      // --bench-html=FILE
    bool group_by_list = false;                // --group-by=list

    // Hardware-counter tier.
    bool perf = false;                         // --perf
    bool perf_scaled = false;                  // --perf-scaled
    bool perf_inherit = false;                 // --perf-inherit
    std::optional<std::uint64_t> perf_iters;   // --perf-iters=N
    std::optional<std::uint64_t> perf_batch;   // --perf-batch=N
    PerfRead perf_read = PerfRead::automatic;  // --perf-read=auto|rdpmc|syscall|compare

    // Catalog.
    std::vector<std::string> metrics;   // --metrics=LIST (empty: the default columns)
    bool list_metrics = false;          // --list-metrics or --metrics=?
    bool capabilities = false;          // --capabilities
    bool syscalls_total = false;        // --syscalls
    std::vector<std::string> syscalls;  // --syscalls=futex,read,...
    bool simulate = false;              // --simulate: counted on Callgrind's simulated CPU

    // Per-call distributions.
    bool per_iteration = false;  // --per-iteration
    std::string histogram;       // --histogram=GLOB: print a terminal histogram

    // Placement and environment (engine/placement/, engine/environment/).
    std::optional<unsigned> pin_cpu;    // --pin=CPU
    bool pin_auto = false;              // --pin=auto
    std::optional<unsigned> numa_node;  // --numa-node=N
    bool quiet_environment = false;     // --quiet-environment

    // A run that keeps what it measured (engine/runner/keeping/run_guard.hpp, isolation.hpp).
    std::optional<std::string> recover_journal;  // --recover-journal=FILE

    // Sampled profiles (--profile[=HZ], --profile-samples, --profile-time, --profile-folded).
    ProfileRequest profile;

    // Finding cases.
    bool list = false;       // --list: the selected cases, measured or not, never run
    bool list_json = false;  // --format=json (with --list)
    bool version = false;    // --version

    bool help = false;               // --help
    bool help_markdown = false;      // --help-markdown: the flags reference (docs/flags.md)
    std::vector<std::string> given;  // every flag given, by name, in order (for notes)
};

// Parses argv[1..]. Throws UsageError naming the offending flag.
Options parse_options(std::span<const char* const> args);

// What the flags ask of the tiers, resolved once (tiers never see Options).
TierRequest tier_request(const Options& options);

// What --pin and --numa-node ask of the placement.
PlacementRequest placement_request(const Options& options);

// One note per flag given that has no effect in this mode ("--bench-json has no effect
// without --bench").
std::vector<std::string> ineffective_flag_notes(const Options& options);

// The plan the flags ask for (engine/cli/run_plan.hpp), every check across flags made (the
// output targets resolved and probed, the tiers' selectors); UsageError naming the flag else.
// Nothing is opened for --help, --version and --recover-journal.
RunPlan plan_run(const Options& options);

}  // namespace glint::engine
