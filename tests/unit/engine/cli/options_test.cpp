#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/cli/options.hpp"
#include "parse.hpp"

using namespace glint::engine;

using glint::engine::test::error_of;
using glint::engine::test::parse;

TEST_CASE("options: defaults") {
    Options o = parse({});
    CHECK_FALSE(o.bench);
    CHECK(o.measuring.min_time_ms == 0.25);
    CHECK(o.cases.filter.empty());
    CHECK_FALSE(o.json_path.has_value());
    CHECK(o.perf_read == PerfRead::automatic);
}

TEST_CASE("options: every flag parses") {
    Options o = parse({"--bench", "--filter=sort*", "--bench-min-time=2.5", "--bench-json=out.json",
                       "--group-by=dataset,operation", "--sort-by=-median", "--perf-scaled",
                       "--perf-inherit", "--perf-iters=1000", "--perf-batch=1",
                       "--perf-read=compare", "--metrics=ipc,cache-*", "--capabilities",
                       "--syscalls=futex,read", "--histogram=sort*", "--bench-baseline=base.json"});
    CHECK(o.bench);
    CHECK(o.cases.filter == "sort*");
    CHECK(o.measuring.min_time_ms == 2.5);
    CHECK(*o.json_path == "out.json");
    CHECK(*o.baseline_path == "base.json");
    CHECK(o.measuring.group_by == std::vector<std::string>{"dataset", "operation"});
    CHECK(o.table.sort_by == "median");
    CHECK(o.table.sort_descending);
    CHECK(o.perf);
    CHECK(o.perf_scaled);
    CHECK(o.perf_inherit);
    CHECK(*o.perf_iters == 1000);
    CHECK(*o.perf_batch == 1);
    CHECK(o.perf_read == PerfRead::compare);
    CHECK(o.metrics == std::vector<std::string>{"ipc", "cache-*"});
    CHECK(o.capabilities);
    CHECK(o.syscalls_total);
    CHECK(o.syscalls == std::vector<std::string>{"futex", "read"});
    CHECK(o.per_iteration);
    CHECK(o.histogram == "sort*");

    CHECK(parse({"--group-by=all"}).measuring.group_by_all);
    CHECK(parse({"--group-by=list"}).group_by_list);
    CHECK(parse({"--metrics=?"}).list_metrics);
    CHECK(parse({"--list-metrics"}).list_metrics);
    CHECK(parse({"--syscalls"}).syscalls_total);
    CHECK(parse({"--syscalls"}).syscalls.empty());
    CHECK(parse({"--perf"}).perf);
    CHECK(parse({"--per-iteration"}).per_iteration);
    CHECK(parse({"--perf-read=syscall"}).perf_read == PerfRead::syscall);
    CHECK(parse({"--perf-read=rdpmc"}).perf_read == PerfRead::rdpmc);
    CHECK(parse({"--perf-read=user"}).perf_read == PerfRead::rdpmc);  // alias, every arch
    CHECK(parse({"--perf-read=compare"}).perf_read == PerfRead::compare);
    CHECK(parse({"--perf-read=auto"}).perf_read == PerfRead::automatic);
    CHECK(parse({"--help"}).help);
}

TEST_CASE("options: each bad value names its flag") {
    CHECK(error_of({"--frobnicate"}) == "unknown flag '--frobnicate'; see --help");
    CHECK(error_of({"--bench-min-time=abc"}).rfind("--bench-min-time: 'abc' is not a number", 0) ==
          0);
    CHECK(error_of({"--bench-min-time=-3"}) == "--bench-min-time: must be greater than 0, got -3");
    CHECK(error_of({"--bench-min-time=0"}) == "--bench-min-time: must be greater than 0, got 0");
    CHECK(error_of({"--bench-min-time"}).rfind("--bench-min-time: needs a value", 0) == 0);
    CHECK(error_of({"--perf-iters=-5"}) == "--perf-iters: must be a positive integer, got -5");
    CHECK(
        error_of({"--perf-iters=ten"}).rfind("--perf-iters: 'ten' is not a positive integer", 0) ==
        0);
    CHECK(error_of({"--perf-batch=0"}) == "--perf-batch: must be at least 1, got 0");
    CHECK(error_of({"--perf-batch=99999999999999999999999"}).rfind("--perf-batch:", 0) == 0);
    CHECK(error_of({"--perf-read=fast"}) ==
          "--perf-read: 'fast' is not one of auto, rdpmc, syscall, compare");
    CHECK(error_of({"--bench=yes"}) == "--bench: takes no value");
    CHECK(error_of({"--bench-json="}).rfind("--bench-json: needs a value", 0) == 0);
    CHECK(error_of({"--bench-baseline"}).rfind("--bench-baseline: needs a value", 0) == 0);
    CHECK(error_of({"--group-by=,"}) == "--group-by: names no key: --group-by=KEY,...|all|list");
    CHECK(error_of({"--sort-by=-"}) == "--sort-by: names no column: --sort-by=COLUMN");
    CHECK(error_of({"--metrics=,"}) == "--metrics: names no metric: --metrics=LIST");
    std::string many = "--syscalls=";
    for (int i = 0; i < 63; ++i) many += "s" + std::to_string(i) + ",";
    CHECK(error_of({many.c_str()}).rfind("--syscalls: names 63 syscalls", 0) == 0);
}

TEST_CASE("options: --pin, --numa-node and --quiet-environment") {
    Options none = parse({});
    CHECK_FALSE(none.pin_cpu);
    CHECK_FALSE(none.pin_auto);
    CHECK_FALSE(none.numa_node);
    CHECK_FALSE(none.quiet_environment);
    CHECK_FALSE(placement_request(none).any());

    Options pinned = parse({"--pin=0", "--numa-node=1", "--quiet-environment"});
    CHECK(pinned.pin_cpu == 0u);  // CPU 0 and node 0 are valid numbers
    CHECK(pinned.numa_node == 1u);
    CHECK(pinned.quiet_environment);
    const PlacementRequest r = placement_request(pinned);
    CHECK(r.pin == PlacementRequest::Pin::cpu);
    CHECK(r.cpu == 0);
    CHECK(r.numa_node == 1u);

    Options automatic = parse({"--pin=auto"});  // --pin twice is an error (flag_hints_test)
    CHECK(automatic.pin_auto);
    CHECK_FALSE(automatic.pin_cpu);
    CHECK(placement_request(automatic).pin == PlacementRequest::Pin::automatic);

    CHECK(error_of({"--pin"}) == "--pin: needs a value: --pin=CPU|auto");
    CHECK(error_of({"--pin=-1"}) == "--pin: '-1' is not a number; expected --pin=CPU|auto");
    CHECK(error_of({"--pin=70000"}) == "--pin: 70000 is out of range (0 to 65535)");
    CHECK(error_of({"--numa-node=x"}) ==
          "--numa-node: 'x' is not a number; expected --numa-node=N");
    CHECK(error_of({"--quiet-environment=1"}) == "--quiet-environment: takes no value");
}

TEST_CASE(
    "options: repetitions, the verdicts' threshold and gate, table formats and the HTML report") {
    const Options d = parse({});
    CHECK(d.measuring.repeat == 1);
    CHECK(d.threshold_pct == 3.0);
    CHECK_FALSE(d.fail_if_slower);
    CHECK(d.table.format == "box");
    CHECK_FALSE(d.html_path);
    const Options o = parse({"--bench-repeat=10", "--threshold=5", "--fail-if-slower=2.5",
                             "--bench-format=csv", "--bench-html=r.html"});
    CHECK(o.measuring.repeat == 10);
    CHECK(o.threshold_pct == 5.0);
    CHECK(o.fail_if_slower == 2.5);
    CHECK(o.table.format == "csv");
    CHECK(o.html_path == "r.html");
    CHECK(parse({"--bench-format=md"}).table.format == "md");
    CHECK(parse({"--bench-repeat=1000"}).measuring.repeat == 1000);
    CHECK(error_of({"--bench-repeat=0"}) == "--bench-repeat: must be at least 1, got 0");
    CHECK(error_of({"--bench-repeat=1001"}) ==
          "--bench-repeat: 1001 is out of range; it must be between 1 and 1000");
    CHECK(error_of({"--threshold=-1"}) ==
          "--threshold: must be between 0 and 1000 (percent), got -1");
    CHECK(error_of({"--fail-if-slower=x"}) ==
          "--fail-if-slower: 'x' is not a number; expected --fail-if-slower=PCT (e.g. 5 for 5%)");
    CHECK(error_of({"--bench-format=html"}) ==
          "--bench-format: 'html' is not one of box, md, csv, gbench-json");
    CHECK(error_of({"--bench-html="}) == "--bench-html: needs a value: --bench-html=FILE");
}
