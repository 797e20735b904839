// Every numeric flag's range, checked after unit conversion (engine/cli/ranges.hpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/cli/options.hpp"
#include "engine/cli/ranges.hpp"
#include "parse.hpp"

using namespace glint::engine;

using glint::engine::test::error_of;

TEST_CASE("ranges: --bench-min-time accepts 0.001 .. 1000 ms and refuses what lies outside") {
    CHECK(parse_options(std::vector<const char*>{"--bench-min-time=0.001"}).measuring.min_time_ms ==
          0.001);
    CHECK(parse_options(std::vector<const char*>{"--bench-min-time=1000"}).measuring.min_time_ms ==
          1000);
    CHECK(parse_options(std::vector<const char*>{"--bench-min-time=1e-3"}).measuring.min_time_ms ==
          0.001);
    CHECK(error_of({"--bench-min-time=1000.5"}) ==
          "--bench-min-time: 1000.5 is out of range; it must be between 0.001 and 1000");
    CHECK(error_of({"--bench-min-time=0.0009"}) ==
          "--bench-min-time: 0.0009 is out of range; it must be between 0.001 and 1000");
    CHECK(error_of({"--bench-min-time=1e308"}).find("out of range") != std::string::npos);
    CHECK(error_of({"--bench-min-time=1e999"}).find("is not a number") !=
          std::string::npos);  // inf
    CHECK(error_of({"--bench-min-time=nan"}).find("is not a number") != std::string::npos);
    CHECK(error_of({"--bench-min-time=0x10"}).find("is not a number") != std::string::npos);
    CHECK(error_of({"--bench-min-time= 5"}).find("is not a number") != std::string::npos);
}

TEST_CASE("ranges: --perf-iters and --perf-batch accept 1 .. 10^9") {
    const Options o =
        parse_options(std::vector<const char*>{"--perf-iters=1000000000", "--perf-batch=1"});
    CHECK(*o.perf_iters == kMaxPassIterations);
    CHECK(*o.perf_batch == 1);
    CHECK(error_of({"--perf-iters=1000000001"}) ==
          "--perf-iters: 1000000001 is out of range; it must be between 1 and 1000000000");
    CHECK(
        error_of({"--perf-batch=18446744073709551615"}) ==
        "--perf-batch: 18446744073709551615 is out of range; it must be between 1 and 1000000000");
    CHECK(error_of({"--perf-iters=18446744073709551616"}).find("out of range") !=
          std::string::npos);
    CHECK(error_of({"--perf-iters=0"}) == "--perf-iters: must be at least 1, got 0");
}

TEST_CASE("ranges: --case-timeout accepts 0.1 .. 604800 s, and 0 for no limit") {
    CHECK(parse_options(std::vector<const char*>{}).cases.case_timeout_s == kDefaultCaseTimeoutS);
    CHECK(parse_options(std::vector<const char*>{"--case-timeout=0.5"}).cases.case_timeout_s ==
          0.5);
    CHECK(parse_options(std::vector<const char*>{"--case-timeout=0"}).cases.case_timeout_s == 0);
    CHECK(parse_options(std::vector<const char*>{"--case-timeout=604800"}).cases.case_timeout_s ==
          604800);
    CHECK(error_of({"--case-timeout=604801"}) ==
          "--case-timeout: 604801 is out of range; it must be between 0.1 and 604800 (or 0: no "
          "limit)");
    CHECK(error_of({"--case-timeout=0.05"}).find("out of range") != std::string::npos);
    CHECK(error_of({"--case-timeout=-1"}) ==
          "--case-timeout: must be greater than 0 (or 0: no limit), got -1");
    // An underflow is out of range, not the 0 of "no limit".
    CHECK(error_of({"--case-timeout=1e-400"}) ==
          "--case-timeout: 1e-400 is out of range; it must be between 0.1 and 604800 (or 0: no "
          "limit)");
    CHECK(error_of({"--case-timeout=soon"}) ==
          "--case-timeout: 'soon' is not a number; expected --case-timeout=SECONDS");
}

TEST_CASE("ranges: the flags of a run that keeps its rows parse") {
    const Options o =
        parse_options(std::vector<const char*>{"--isolate", "--recover-journal=j", "--bench"});
    CHECK(o.cases.isolate);
    CHECK(*o.recover_journal == "j");
    CHECK(o.given == std::vector<std::string>{"--isolate", "--recover-journal", "--bench"});
    CHECK(error_of({"--isolate=yes"}) == "--isolate: takes no value");
    CHECK(error_of({"--recover-journal"}).rfind("--recover-journal: needs a value", 0) == 0);
}

TEST_CASE(
    "ranges: --threshold and --fail-if-slower take decimal numbers only, as every number flag") {
    CHECK(parse_options(std::vector<const char*>{"--threshold=2.5e0"}).threshold_pct == 2.5);
    CHECK(error_of({"--threshold=0x10"}) ==
          "--threshold: '0x10' is not a number; expected --threshold=PCT (e.g. 5 for 5%)");
    CHECK(error_of({"--threshold= 5"}) ==
          "--threshold: ' 5' is not a number; expected --threshold=PCT (e.g. 5 for 5%)");
    CHECK(error_of({"--fail-if-slower=0x10"}).find("is not a number") != std::string::npos);
}
