// /proc/stat's steal column and a schedstat line (os/time_lost.hpp): the portable parsers, on
// the kernel's text and on text no kernel should write.
#include <doctest/doctest.h>

#include "os/time_lost.hpp"

using namespace glint::os;

namespace {

// user nice system idle iowait irq softirq steal guest guest_nice
const char* kStat =
    "cpu  300 0 100 1000 0 0 0 17 0 0\n"
    "cpu0 100 0 50 500 0 0 0 5 0 0\n"
    "cpu1 100 0 20 200 10 0 0 12 0 0\n"
    "intr 12345 0 0 7\n"
    "ctxt 999\n"
    "cpufreq 1\n";

}  // namespace

TEST_CASE("time lost: /proc/stat's steal column, in all and per CPU") {
    const StealReading r = parse_proc_stat_steal(kStat);
    REQUIRE(r.ok);
    CHECK(r.why.empty());
    CHECK(r.all == 17);
    REQUIRE(r.per_cpu.size() == 2);
    CHECK(r.of_cpu(0) == std::optional<std::uint64_t>(5));
    CHECK(r.of_cpu(1) == std::optional<std::uint64_t>(12));
    CHECK_FALSE(r.of_cpu(2));
    CHECK(r.tick_ns == 0);  // the parser does not know USER_HZ; read_steal fills it
    // Only user..softirq before it (a kernel before 2.6.11): no steal, and never a 0 for it.
    CHECK(parse_proc_stat_steal("cpu  1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7\n").ok == false);
    CHECK(parse_proc_stat_steal("cpu  1 2 3 4 5 6 7\n").why.find("no steal column") !=
          std::string::npos);
    // CRLF-free but tab-separated, and a kernel with more columns than today's: still read.
    CHECK(parse_proc_stat_steal("cpu\t1 2 3 4 5 6 7 8 9 10 11 12\n").all == 8);
}

TEST_CASE("time lost: hostile /proc/stat text is refused or skipped, never read as 0") {
    for (const char* text :
         {"", "\n\n", "intr 1 2 3\n", "cpu0 1 2 3 4 5 6 7 8\n", "cpux 1 2 3 4 5 6 7 8\n"}) {
        const StealReading r = parse_proc_stat_steal(text);
        CHECK_FALSE(r.ok);
        CHECK(r.why.find("no aggregate") != std::string::npos);
    }
    // A malformed or overflowing number in the aggregate line: not ok, saying which word.
    for (const char* text : {"cpu  1 2 3 4 5 6 7 -8\n", "cpu  1 2 3 4 5 6 7 8x\n",
                             "cpu  1 2 3 4 5 6 7 99999999999999999999999\n"}) {
        const StealReading r = parse_proc_stat_steal(text);
        CHECK_FALSE(r.ok);
        CHECK(r.why.find("malformed number") != std::string::npos);
    }
    // A torn per-CPU line drops that CPU alone; "cpu" prefixes that are not cpuN are skipped.
    const StealReading r = parse_proc_stat_steal(
        "cpu  1 2 3 4 5 6 7 8\ncpu0 1 2 3\ncpu1 1 2 3 4 5 6 7 9\ncpufreq 1 2 3 4 5 6 7 8\n"
        "cpu99999999999 1 2 3 4 5 6 7 8\ncpu  9 9 9 9 9 9 9 100\n");
    REQUIRE(r.ok);
    CHECK(r.all == 8);  // the first aggregate line
    REQUIRE(r.per_cpu.size() == 1);
    CHECK(r.of_cpu(1) == std::optional<std::uint64_t>(9));
    CHECK_FALSE(r.of_cpu(0));
}

TEST_CASE("time lost: schedstat's second field is the run delay") {
    const RunDelayReading r = parse_schedstat("5844120 123456 71\n");
    REQUIRE(r.ok);
    CHECK(r.ns == 123456);
    CHECK(parse_schedstat("1 0 1").ns == 0);  // no wait at all is a measured 0
    CHECK(parse_schedstat("1 0 1").ok);
}

TEST_CASE("time lost: a schedstat the kernel keeps nothing in, or garbage, is not a 0") {
    const RunDelayReading off = parse_schedstat("0 0 0\n");
    CHECK_FALSE(off.ok);
    CHECK(off.why.find("keeps no scheduler statistics") != std::string::npos);
    for (const char* text : {"", "\n", "12", "12 x 3", "-1 -2 -3", "12 99999999999999999999999 1",
                             "se.sum_exec_runtime : 1.0\n"}) {
        const RunDelayReading r = parse_schedstat(text);
        CHECK_FALSE(r.ok);
        CHECK(r.why.find("is not \"<on-cpu ns> <run delay ns>") != std::string::npos);
    }
}
