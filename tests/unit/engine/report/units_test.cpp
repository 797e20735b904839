// Value formatting and display-width arithmetic of the table.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/report/text.hpp"
#include "engine/report/units.hpp"
#include "engine/tiers/client_metrics.hpp"
#include "rows.hpp"

using namespace glint::engine;
using namespace glint::engine::report;
using glint::catalog::Format;
using glint::catalog::MetricCell;

TEST_CASE("report: times use ns with 2 decimals, µs/ms/s with 1, switching at 1000") {
    CHECK(format_time_ns(11.48) == "11.48ns");
    CHECK(format_time_ns(391.0) == "391.00ns");
    CHECK(format_time_ns(0.02) == "0.02ns");
    CHECK(format_time_ns(0.0) == "0.00ns");
    CHECK(format_time_ns(999.99) == "999.99ns");
    CHECK(format_time_ns(1000.0) == "1.0µs");
    CHECK(format_time_ns(1500.0) == "1.5µs");
    CHECK(format_time_ns(236800.0) == "236.8µs");
    CHECK(format_time_ns(1.8e6) == "1.8ms");
    CHECK(format_time_ns(11.0e6) == "11.0ms");
    CHECK(format_time_ns(2.5e9) == "2.5s");
    CHECK(format_time_ns(2000e9) == "2000.0s");  // seconds are the largest unit
}

TEST_CASE("report: a time that rounds up to 1000 moves to the next unit") {
    CHECK(format_time_ns(999.996) == "1.0µs");
    CHECK(format_time_ns(999960.0) == "1.0ms");
    CHECK(format_time_ns(999.96e6) == "1.0s");
}

TEST_CASE("report: a time not measured renders an em dash, never 0") {
    CHECK(format_time_ns(std::nan("")) == "—");
    CHECK(format_time_ns(INFINITY) == "—");
}

TEST_CASE("report: counts carry an SI suffix and 2 decimals") {
    CHECK(format_count(233.0) == "233.00");
    CHECK(format_count(4100.0) == "4.10k");
    CHECK(format_count(166.96e6) == "166.96M");
    CHECK(format_count(1.25e9) == "1.25G");
    CHECK(format_count(3e12) == "3.00T");
    CHECK(format_count(4e15) == "4000.00T");
    CHECK(format_count(999.999) == "1.00k");
    CHECK(format_count(-4100.0) == "-4.10k");
    CHECK(format_count(-0.001) == "0.00");  // no "-0.00"
}

TEST_CASE("report: metric cells follow their catalog format") {
    MetricCell cell;
    cell.format = Format::ratio;
    cell.value = 1.8349;
    CHECK(format_metric(cell) == "1.83");
    cell.format = Format::percent;
    cell.value = 2.3149;
    CHECK(format_metric(cell) == "2.31%");
    cell.format = Format::count;
    cell.value = 4100;
    CHECK(format_metric(cell) == "4.10k");
    cell.estimated = true;
    CHECK(format_metric(cell) == "≈4.10k");
    cell.value = std::nan("");  // not measured: no estimate mark, no zero
    CHECK(format_metric(cell) == "—");
}

TEST_CASE("report: a metric of nanoseconds renders in time units, as the time columns beside it") {
    MetricCell cell;
    cell.format = Format::nanoseconds;
    cell.value = 5110;
    CHECK(format_metric(cell) == "5.1µs");  // not "5.11k"
    cell.value = 11.48;
    CHECK(format_metric(cell) == format_time_ns(11.48));
    cell.estimated = true;
    CHECK(format_metric(cell) == "≈11.48ns");
    cell.value = std::nan("");
    CHECK(format_metric(cell) == "—");
}

TEST_CASE("report: n is samples×iterations, or the sample count for a per-call case") {
    using testing::batched;
    using testing::per_call;
    CHECK(format_n(batched(32, 16777216, 1, 0, 1, 1)) == "32×16777216");
    CHECK(format_n(batched(32, 1, 1, 0, 1, 1)) == "32×1");
    CHECK(format_n(per_call(42, 1, 0, 1, 1)) == "42");
}

TEST_CASE("report: the median cell folds in the MAD, each with its own unit") {
    CHECK(format_median_mad(testing::batched(32, 1, 11.48, 0.02, 1, 1)) == "11.48ns ±0.02ns");
    CHECK(format_median_mad(testing::per_call(42, 1.8e6, 236.8e3, 1, 1)) == "1.8ms ±236.8µs");
    CHECK(format_median_mad(testing::per_call(42, std::nan(""), 1, 1, 1)) == "—");
}

TEST_CASE(
    "report: a per-call median below the clock bracket renders as a bound, its rate unmeasured") {
    TimingSummary fast = testing::per_call(1000, 0.0, 0.0, 0.0, 40.0);
    fast.resolution_ns = 20.0;
    CHECK_FALSE(fast.median_resolved());
    CHECK(format_median_mad(fast) == "<20.00ns");
    CHECK(format_sample_ns(fast, fast.min_ns) == "<20.00ns");
    CHECK(format_sample_ns(fast, fast.max_ns) == "40.00ns");
    const glint::Metric bytes{"B", 64, glint::Metric::rate};
    CHECK(std::isnan(client_cells({bytes}, &fast).at(0).value));

    TimingSummary slow = testing::per_call(1000, 1400.0, 10.0, 1300.0, 5000.0);
    slow.resolution_ns = 20.0;
    CHECK(slow.median_resolved());
    CHECK(format_median_mad(slow) == "1.4µs ±10.00ns");
    CHECK(client_cells({bytes}, &slow).at(0).value == doctest::Approx(64 / 1400e-9));
}

TEST_CASE("report: display width counts code points and skips escape sequences") {
    CHECK(display_width("abc") == 3);
    CHECK(display_width("1.5µs") == 5);
    CHECK(display_width("≈4.10k") == 6);
    CHECK(display_width("—") == 1);
    CHECK(display_width("╭──╮") == 4);
    CHECK(display_width("\x1b[2m⠹ x\x1b[0m") == 3);
}

TEST_CASE("report: truncation ends in an ellipsis and respects the width") {
    CHECK(truncate_to_width("abcdef", 10) == "abcdef");
    CHECK(truncate_to_width("abcdef", 6) == "abcdef");
    CHECK(truncate_to_width("abcdef", 4) == "abc…");
    CHECK(truncate_to_width("µµµµµ", 3) == "µµ…");
    CHECK(truncate_to_width("abc", 0) == "");
    CHECK(display_width(truncate_to_width("±±±±±±", 4)) == 4);
}

TEST_CASE("report: a long line wraps at spaces to the width, continued behind an indent") {
    CHECK(wrap_to_width("perf: fits", 20) == std::vector<std::string>{"perf: fits"});
    CHECK(wrap_to_width("  lead kept, trailing too  ", 100) ==
          std::vector<std::string>{"  lead kept, trailing too  "});
    const auto parts = wrap_to_width("perf: one two three four five six seven", 16, "    ");
    CHECK(parts ==
          std::vector<std::string>{"perf: one two", "    three four", "    five six", "    seven"});
    for (const auto& p : parts) CHECK(display_width(p) <= 16);
    // Display columns, not bytes: µ and ± are one column each.
    CHECK(wrap_to_width("µµµµ ±±±± ab", 9) == std::vector<std::string>{"µµµµ ±±±±", "  ab"});
    // A word wider than the width is kept whole, on a line of its own.
    CHECK(wrap_to_width("see /a/very/long/path/name now", 10) ==
          std::vector<std::string>{"see", "  /a/very/long/path/name", "  now"});
    CHECK(wrap_to_width("", 10) == std::vector<std::string>{""});
}

TEST_CASE("report: a cell splits at its first decimal point") {
    CHECK(split_at_point("391.00ns").left == 3);
    CHECK(split_at_point("391.00ns").right == 5);
    CHECK(split_at_point("1.5µs").left == 1);
    CHECK(split_at_point("1.5µs").right == 4);
    CHECK(split_at_point("1.8ms ±236.8µs").right == 13);
    CHECK(split_at_point("—").left == 1);
    CHECK(split_at_point("—").right == 0);
    CHECK(split_at_point("32×16777216").left == 11);
}
