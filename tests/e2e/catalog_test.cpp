// End to end: the metric catalog through the command line — --list-metrics (a golden
// snapshot), --metrics selection (names, globs, tiers opened by naming a column), tier 0 and
// syscall tracepoints on a real I/O-bound fixture, raw:/pfm: selectors, and bad selectors
// stopping the run with exit 2 before anything is measured. Built everywhere: a case whose point
// needs Linux (tier 0, tracepoints, libpfm) skips elsewhere and says so; the listing's snapshot
// is per OS (fixtures/list_metrics_<GLINT_OS>.golden).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "support/platform.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"
#include "support/tracefs.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::run_process;
using glint::test::temp_path;
using glint::test::unwrapped;

namespace {

const Json& row(const Json& doc, const std::string& name) {
    for (const auto& r : doc.at("rows").as_array())
        if (r.at("name").as_string() == name) return r;
    FAIL("no row " << name);
    return doc;
}

double metric(const Json& doc, const std::string& row_name, const std::string& name) {
    const Json& m = row(doc, row_name).at("metrics");
    REQUIRE_MESSAGE(m.contains(name), "row " << row_name << " has no metric " << name);
    return m.at(name).as_number();
}

// The listing with what depends on the host normalized: columns joined by " | "; on Linux the
// availability and default flag of perf and syscall rows (a PMU or not, privilege) become "*"
// (elsewhere they are unavailable on every host, and kept); other availabilities keep their
// first word; the libpfm version is dropped.
std::string normalized_listing(const std::string& out) {
    std::istringstream in(out);
    std::string line, result;
    static const std::regex columns(
        R"(^(\S+)\s{2,}(.+?)\s{2,}(quantitative|diagnostic|class)\s{2,}(\S+)\s{2,}(yes|no|default)\s{2,}(.*)$)");
    while (std::getline(in, line)) {
        std::smatch m;
        if (std::regex_match(line, m, columns)) {
            const std::string source = m[4];
            const bool host = glint::test::kLinux && (source == "perf" || source == "syscall");
            std::string availability = m[6];
            availability = availability.substr(0, availability.find(':'));
            if (host && m[1] != "name") availability = "*";
            const std::string is_default = host && m[1] != "name" ? "*" : std::string(m[5]);
            result += std::string(m[1]) + " | " + std::string(m[2]) + " | " + std::string(m[3]) +
                      " | " + source + " | " + is_default + " | " + availability + "\n";
            continue;
        }
        line = std::regex_replace(line, std::regex(R"(eventNaming present \(.*\)$)"),
                                  "eventNaming present");
        line = std::regex_replace(line, std::regex(R"(eventNaming absent: .*$)"),
                                  "eventNaming absent");
        result += line + "\n";
    }
    return result;
}

// The first table's header row ("│ benchmark │ n │ ... │").
std::string table_header(const std::string& out) {
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line))
        if (contains(line, "│ benchmark")) return line;
    return {};
}

std::string golden_path() {
    return std::string(GLINT_TEST_SOURCE_DIR) + "/tests/e2e/fixtures/list_metrics_" +
           std::string(glint::test::kBuildOs) + ".golden";
}

}  // namespace

TEST_CASE(
    "e2e catalog: --list-metrics matches its snapshot, with or without --bench, or as "
    "--metrics=?") {
    auto r = run_process({fixture_path("basic"), "--list-metrics"});
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.empty());  // the listing gives reasons itself: no notes
    const std::string actual = normalized_listing(r.out);
    if (std::getenv("GLINT_UPDATE_GOLDEN")) std::ofstream(golden_path()) << actual;
    CHECK(actual == glint::test::read_file(golden_path()));

    auto bench = run_process({fixture_path("basic"), "--bench", "--list-metrics"});
    CHECK(bench.exit_code == 0);
    CHECK(normalized_listing(bench.out) == actual);
    auto question = run_process({fixture_path("basic"), "--metrics=?"});
    CHECK(question.exit_code == 0);
    CHECK(normalized_listing(question.out) == actual);
}

TEST_CASE("e2e catalog: the listing gives the reason for what is unavailable here") {
    auto r = run_process({fixture_path("basic"), "--list-metrics"});
    REQUIRE(r.exit_code == 0);
    std::istringstream in(r.out);
    std::string line;
    int rows = 0;
    while (std::getline(in, line)) {
        if (!contains(line, "  perf  ") && !contains(line, "  tier0  ") &&
            !contains(line, "  syscall  "))
            continue;
        ++rows;
        CAPTURE(line);
        if (contains(line, "unavailable")) CHECK(contains(line, "unavailable: "));
    }
    CHECK(rows == 9 + 12 + 11 + 1);  // perf, its --perf-read=compare columns, tier0, syscalls
}

TEST_CASE("e2e catalog: tier 0 and --syscalls count a real I/O-bound fixture exactly") {
    if (!glint::test::kLinux)
        return glint::test::skip("tier 0 reads /proc/self/io and --syscalls Linux tracepoints");
    if (glint::test::ensure_tracefs().empty())
        return glint::test::skip(glint::test::tracefs_missing_reason);
    const std::string json = temp_path("io.json");
    auto r = run_process({fixture_path("io"), "--bench", "--bench-min-time=0.05",
                          "--metrics=syscr,rchar", "--syscalls=write", "--bench-json=" + json});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK_FALSE(contains(r.err, "warning"));
    // The named columns and the --syscalls ones, nothing else.
    CHECK(contains(table_header(r.out), "max │ syscr │ rchar │ syscalls │ sc:write │"));
    CHECK(contains(unwrapped(r.out),
                   "tier0: each snapshot's own /proc/self/io reads removed exactly"));
    CHECK(contains(unwrapped(r.out), "syscalls: tracepoint group from"));

    const Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    CHECK(metric(doc, "read_4k", "rchar") == doctest::Approx(4096).epsilon(0.001));
    CHECK(metric(doc, "read_4k", "syscr") == doctest::Approx(1).epsilon(0.001));
    CHECK(metric(doc, "read_4k", "cache-hit") > 99.9);
    CHECK(metric(doc, "write_3", "sc:write") == 3);
    CHECK(metric(doc, "write_3", "syscalls") >= 3);
    CHECK(metric(doc, "write_3", "syscw") == doctest::Approx(3).epsilon(0.001));
    CHECK(metric(doc, "read_4k", "sc:write") == 0);
    CHECK(metric(doc, "quiet", "syscalls") == 0);
    CHECK(row(doc, "quiet").at("metrics").at("cache-hit").is_null());  // nothing read: no rate
    bool listed = false;
    for (const auto& c : doc.at("columns").as_array())
        if (c.at("name").as_string() == "sc:write") {
            listed = true;
            CHECK(c.at("source").as_string() == "syscall");
            CHECK(c.at("class").as_string() == "quantitative");
        }
    CHECK(listed);
    CHECK(doc.at("meta").at("tiers").at("syscall").at("inherit").as_bool());
    CHECK(doc.at("meta").at("tiers").at("tier0").at("scope").as_string() == "process");
}

TEST_CASE("e2e catalog: naming a column opens its tier, globs pick columns, unmatched warns") {
    auto glob = run_process({fixture_path("io"), "--bench", "--bench-min-time=0.05",
                             "--filter=quiet", "--metrics=w*,syscr,nosuch*,bogus"});
    REQUIRE(glob.exit_code == 0);
    CHECK(contains(table_header(glob.out), "max │ syscr │"));  // named: shown, measured or not
    CHECK(contains(glob.err, "--metrics selector 'nosuch*' matches no metric"));
    CHECK(contains(glob.err, "--metrics selector 'bogus' matches no metric"));
    if (!glint::test::kLinux)
        return glint::test::skip("the tiers opened here (tier 0, tracepoints) need Linux");
    CHECK(contains(table_header(glob.out), "max │ syscr │ wchar │ wr-bytes │"));

    if (glint::test::ensure_tracefs().empty())
        return glint::test::skip(glint::test::tracefs_missing_reason);
    auto named = run_process({fixture_path("io"), "--bench", "--bench-min-time=0.05",
                              "--filter=write_3", "--metrics=sc:write"});
    REQUIRE_MESSAGE(named.exit_code == 0, named.err);
    CHECK(contains(table_header(named.out), "max │ sc:write │"));  // only what was named
    CHECK(contains(named.out, "3.00 │"));
}

TEST_CASE("e2e catalog: --sort-by orders rows by a tier-0 column") {
    if (!glint::test::kLinux) return glint::test::skip("tier 0 reads /proc/self/io (Linux)");
    auto r = run_process({fixture_path("io"), "--bench", "--bench-min-time=0.05", "--metrics=rchar",
                          "--sort-by=-rchar"});
    REQUIRE(r.exit_code == 0);
    CHECK_FALSE(contains(r.err, "--sort-by"));
    const auto read = r.out.find("read_4k");
    const auto write = r.out.find("write_3");
    REQUIRE(read != std::string::npos);
    REQUIRE(write != std::string::npos);
    CHECK(read < write);
    auto ascending = run_process({fixture_path("io"), "--bench", "--bench-min-time=0.05",
                                  "--metrics=rchar", "--sort-by=rchar", "--filter=read_4k"});
    CHECK(ascending.exit_code == 0);
}

TEST_CASE("e2e catalog: a pfm: software event counts, sorts and serializes under its selector") {
    if (!glint::test::kLinux) return glint::test::skip("libpfm4 and perf_event are Linux's");
    const std::string json = temp_path("pfm.json");
    auto r = run_process({fixture_path("basic"), "--bench", "--bench-min-time=0.05",
                          "--filter=whole*", "--metrics=pfm:PERF_COUNT_SW_PAGE_FAULTS,raw:r00c0",
                          "--sort-by=pfm:PERF_COUNT_SW_PAGE_FAULTS", "--bench-json=" + json});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK_FALSE(contains(r.err, "--sort-by"));
    CHECK(contains(unwrapped(r.out),
                   "pfm: own counting group: pfm:PERF_COUNT_SW_PAGE_FAULTS "
                   "(perf::PERF_COUNT_SW_PAGE_FAULTS = type 1 config 0x2)"));
    CHECK(contains(table_header(r.out), "max │ raw:r00c0 │ pfm:PERF_COUNT_SW_PAGE_FAULTS │"));
    const Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    CHECK(metric(doc, "whole_body", "pfm:PERF_COUNT_SW_PAGE_FAULTS") == 0);
    const Json& pfm = doc.at("meta").at("tiers").at("pfm");
    CHECK(pfm.at("events").as_array()[0].at("selector").as_string() ==
          "pfm:PERF_COUNT_SW_PAGE_FAULTS");
    if (!doc.at("meta").at("tiers").contains("raw")) {
        // No PMU here (a VM): the raw column renders —, stderr says why, the JSON has null.
        CHECK(contains(r.err, "glint: note: raw: raw:r00c0: the kernel refused it"));
        CHECK(contains(r.out, "— │"));
        CHECK(row(doc, "whole_body").at("metrics").at("raw:r00c0").is_null());
        bool described = false;
        for (const auto& c : doc.at("columns").as_array())
            if (c.at("name").as_string() == "raw:r00c0") {
                described = true;
                CHECK_FALSE(c.at("available").as_bool());
                CHECK(contains(c.at("reason").as_string(), "the kernel refused it"));
            }
        CHECK(described);
    }
}

TEST_CASE("e2e catalog: bad selectors exit 2 with one line naming the selector, before measuring") {
    // Malformed selectors are refused on every OS; an unknown pfm: name only where libpfm4 can
    // name events (Linux; elsewhere the column is unavailable, saying why: generic_os_other_test).
    struct Case {
        std::string arg;
        std::string expect;
        bool needs_libpfm = false;
    } cases[] = {
        {"--metrics=raw:zz", "--metrics selector 'raw:zz': a raw config starts with 'r'"},
        {"--metrics=ipc,raw:r12g", "--metrics selector 'raw:r12g': 'g' is not a hex digit"},
        {"--metrics=pfm:NO_SUCH_EVENT",
         "--metrics selector 'pfm:NO_SUCH_EVENT': libpfm4 knows no event 'NO_SUCH_EVENT'", true},
        {"--metrics=pfm:INST_RETIRED:NOPE",
         "--metrics selector 'pfm:INST_RETIRED:NOPE': libpfm4 rejected", true},
        {"--syscalls=read,../x", "--syscalls: '../x' is not a system call name"},
        {"--metrics=sc:a-b", "--metrics selector 'sc:a-b': not a system call name"},
    };
    for (const auto& c : cases) {
        if (c.needs_libpfm && !glint::test::kLinux) continue;
        for (const bool bench : {true, false}) {
            CAPTURE(c.arg);
            CAPTURE(bench);
            std::vector<std::string> argv{fixture_path("io"), c.arg};
            if (bench) argv.push_back("--bench");
            // A forced Skylake model makes libpfm's answer the same on every host.
            auto r = run_process(argv, {"LIBPFM_FORCE_PMU=skl"});
            CHECK(r.exit_code == 2);
            CHECK(contains(r.err, "glint: error: " + c.expect));
            CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
            CHECK(r.out.empty());
        }
    }
}
