#include <doctest/doctest.h>

#include <string>

#include "engine/cli/flag_hints.hpp"
#include "engine/cli/option_table.hpp"
#include "parse.hpp"

using namespace glint::engine;

using glint::engine::test::error_of;
using glint::engine::test::parse;

TEST_CASE("flag hints: an unknown flag close to one gets \"did you mean\"") {
    CHECK(error_of({"--bnech"}) == "unknown flag '--bnech'; did you mean --bench?; see --help");
    CHECK(error_of({"--filtr=copy*"}) ==
          "unknown flag '--filtr=copy*'; did you mean --filter=copy*?; see --help");
    // The value is kept only for a flag that takes one.
    CHECK(error_of({"--bnech=1"}) == "unknown flag '--bnech=1'; did you mean --bench?; see --help");
    // A flag's last word alone: --json is --bench-json.
    CHECK(error_of({"--json=out.json"}) ==
          "unknown flag '--json=out.json'; did you mean --bench-json=out.json?; see --help");
}

TEST_CASE("flag hints: nothing is suggested when no flag is close") {
    CHECK(error_of({"--zzzzzz"}) == "unknown flag '--zzzzzz'; see --help");
    CHECK(error_of({"--x"}) == "unknown flag '--x'; see --help");
    CHECK(error_of({"--"}) == "unknown flag '--'; see --help");
    CHECK(error_of({"copy"}) == "unknown flag 'copy'; see --help");
}

TEST_CASE("flag hints: every listed flag one edit away is suggested for itself") {
    for (const OptionRow& row : option_rows()) {
        if (row.hidden) continue;
        std::string typo(row.flag);
        std::swap(typo[3], typo[4]);  // "--perf" -> "--pefr"
        if (find_option(typo)) continue;
        CAPTURE(typo);
        CHECK(error_of({typo.c_str()}).find("did you mean " + std::string(row.flag)) !=
              std::string::npos);
    }
}

TEST_CASE("flag hints: Google Benchmark's flags map to glint's") {
    CHECK(error_of({"--benchmark_filter=BM_copy"}) ==
          "unknown flag '--benchmark_filter' (a Google Benchmark flag): glint's is "
          "--filter=BM_copy (a glob: * and ?, "
          "not a regex)");
    CHECK(error_of({"--benchmark_repetitions=5"}) ==
          "unknown flag '--benchmark_repetitions' (a Google Benchmark flag): glint's is "
          "--bench-repeat=5 (interleaved)");
    CHECK(error_of({"--benchmark_min_time=0.5s"})
              .ends_with("glint's is --bench-min-time=MS (milliseconds per sample)"));
    CHECK(error_of({"--benchmark_format=json"})
              .ends_with("glint's is --bench-json=FILE (- for the standard output)"));
    CHECK(error_of({"--benchmark_format=csv"}).ends_with("glint's is --bench-format=csv"));
    CHECK(error_of({"--benchmark_out=r.json"}).ends_with("glint's is --bench-json=r.json"));
    CHECK(error_of({"--benchmark_list_tests"}).ends_with("glint's is --list"));
    CHECK(error_of({"--benchmark_time_unit=ms"}) ==
          "unknown flag '--benchmark_time_unit' (a Google Benchmark flag): glint has no "
          "equivalent; see --help");
    // Each suggested flag exists.
    for (const char* f : {"--filter", "--bench-repeat", "--bench-min-time", "--bench-json",
                          "--bench-format", "--list", "--perf", "--metrics"})
        CHECK(find_option(f) != nullptr);
}

TEST_CASE("flag hints: a flag given twice with a value is an error unless its row is repeatable") {
    CHECK(error_of({"--filter=a", "--filter=b"}) ==
          "--filter given twice ('a' and 'b'): give it once; several terms go in one --filter=a,b");
    CHECK(error_of({"--pin=1", "--bench", "--pin=auto"}) ==
          "--pin given twice ('1' and 'auto'): give it once");
    CHECK(error_of({"--profile=100", "--profile=200"}) ==
          "--profile given twice ('100' and '200'): give it once");
    // Without a value twice, or once with and once without: nothing to choose between.
    CHECK(error_of({"--bench", "--bench"}).empty());
    CHECK(error_of({"--profile", "--profile=200"}).empty());
    // Repeatable rows join their lists.
    CHECK(parse({"--metrics=ipc", "--metrics=cache-*,branches"}).metrics ==
          std::vector<std::string>{"ipc", "cache-*", "branches"});
    CHECK(parse({"--syscalls=futex", "--syscalls=read"}).syscalls ==
          std::vector<std::string>{"futex", "read"});
}

TEST_CASE("flag hints: a repeatable row says so in its help, and only such a row") {
    int repeatable = 0;
    for (const OptionRow& row : option_rows()) {
        CAPTURE(row.flag);
        CHECK((std::string_view(row.help).find("repeatable") != std::string_view::npos) ==
              row.repeatable);
        if (!row.repeatable || row.takes == Takes::nothing) continue;
        ++repeatable;
        const std::string a = std::string(row.flag) + "=" + std::string(row.example);
        CHECK(error_of({a.c_str(), a.c_str()}).empty());
    }
    CHECK(repeatable >= 1);
}
