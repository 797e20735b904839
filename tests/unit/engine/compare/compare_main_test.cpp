// glint-compare's exit status on fixed documents: 1 when the gate fails, 3 when it could not
// judge a row, 0 when it passes or is not asked for, 2 for bad usage or an unreadable document.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "engine/compare/compare_main.hpp"

#include "support/temp_dir.hpp"

using glint::engine::compare_main;

namespace {

// A schema-2 document with rows "g/steady" (100 ns) and "g/moving" (`moving` ns), five
// repetitions each spread by ±1%.
std::string document(double moving) {
    auto row = [](const char* name, double v) {
        const std::string reps = std::to_string(v) + ", " + std::to_string(v * 1.01) + ", " +
                                 std::to_string(v * 0.99) + ", " + std::to_string(v * 1.005) +
                                 ", " + std::to_string(v * 0.995);
        return std::string(R"({"registration": "g", "name": ")") + name +
               R"(", "labels": {}, "medianNs": )" + std::to_string(v) + R"(, "samplesNs": [)" +
               reps + R"(], "repetitionMediansNs": [)" + reps + "]}";
    };
    return R"({"schema": 2, "rows": [)" + row("steady", 100) + ", " + row("moving", moving) + "]}";
}

std::string write(const std::string& stem, const std::string& text) {
    const std::string path = glint::test::temp_path("compare_main_" + stem + ".json");
    std::ofstream(path) << text;
    return path;
}

// compare_main over these arguments (stdout and stderr go to the test's own).
int run(std::vector<std::string> args) {
    args.insert(args.begin(), "glint-compare");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    return compare_main(static_cast<int>(args.size()), argv.data());
}

}  // namespace

TEST_CASE("compare main: the gate's exit status") {
    const std::string base = write("base", document(100)), slower = write("slower", document(130)),
                      same = write("same", document(100.5));
    CHECK(run({base, slower, "--fail-if-slower=10"}) == 1);  // +30%, interval far above +10%
    CHECK(run({base, slower, "--fail-if-slower=40"}) == 0);  // beyond the change: passes
    CHECK(run({base, slower}) == 0);                         // no gate, no failure
    CHECK(run({base, same, "--fail-if-slower=0"}) == 3);     // "same" never fails a gate, but its
                                                          // interval reaches past +0%: not judged
    CHECK(run({base, same, "--fail-if-slower=5"}) == 0);  // within a generous gate: passed
    CHECK(run({base, slower, "--format=json", "--fail-if-slower=10"}) == 1);
    CHECK(run({base, slower, "--format=md", "--fail-if-slower=10"}) == 1);
    CHECK(run({base, base, slower, "--fail-if-slower=10"}) == 1);  // a series: any later document
    CHECK(run({base, "--fail-if-slower=10"}) == 2);                // one document
    CHECK(run({base, slower, "--fail-if-slower=ten"}) == 2);
    CHECK(run({base, "/nonexistent/glint.json", "--fail-if-slower=10"}) == 2);
    for (const auto& p : {base, slower, same}) std::remove(p.c_str());
}

TEST_CASE("compare main: a gate that judged nothing exits 3, --allow-unjudged 0, a failure 1") {
    // Rows of one run, one repetition each: the per-sample interval never judges a gate.
    auto single = [](double moving, int reps) {
        auto row = [&](const char* name, double v) {
            std::string samples, medians;
            for (int i = 0; i < 64; ++i)
                samples += (i ? ", " : "") + std::to_string(v * (0.99 + 0.02 * (i % 8) / 7.0));
            for (int r = 0; r < reps; ++r)
                medians += (r ? ", " : "") + std::to_string(v * (1 + 0.001 * r));
            return std::string(R"({"registration": "g", "name": ")") + name +
                   R"(", "labels": {}, "medianNs": )" + std::to_string(v) + R"(, "samplesNs": [)" +
                   samples + R"(], "repetitionMediansNs": [)" + medians + "]}";
        };
        return R"({"schema": 2, "rows": [)" + row("steady", 100) + ", " + row("moving", moving) +
               "]}";
    };
    const std::string base1 = write("base1", single(100, 1)),
                      slow1 = write("slow1", single(130, 1)),
                      base3 = write("base3", single(100, 3)),
                      slow3 = write("slow3", single(130, 3)),
                      base4 = write("base4", single(100, 4)),
                      slow4 = write("slow4", single(130, 4)),
                      other = write("other",
                                    R"({"schema": 2, "rows": [{"registration": "h", "name": "x",
                          "labels": {}, "medianNs": 100, "samplesNs": [100, 101]}]})");
    CHECK(run({base1, slow1, "--fail-if-slower=10"}) == 3);  // one run a side, 30% slower: not 0
    CHECK(run({base3, slow3, "--fail-if-slower=10"}) == 3);  // --bench-repeat=3 a side: not 0
    CHECK(run({base4, slow4, "--fail-if-slower=10"}) == 1);  // 4 repetitions a side: judged slower
    CHECK(run({base1, other, "--fail-if-slower=10"}) == 3);  // nothing compared
    CHECK(run({base1, slow1, "--fail-if-slower=10", "--allow-unjudged"}) == 0);
    CHECK(run({base4, slow4, "--fail-if-slower=10", "--allow-unjudged"}) == 1);
    CHECK(run({base1, slow1}) == 0);                      // no gate asked
    CHECK(run({base1, slow1, "--allow-unjudged"}) == 2);  // relaxes no gate: bad usage
    for (const auto& p : {base1, slow1, base3, slow3, base4, slow4, other}) std::remove(p.c_str());
}
