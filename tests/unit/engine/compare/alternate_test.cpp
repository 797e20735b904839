// glint-compare --alternate=K: its flags taken out of the command line, the refusals before
// anything runs, and what each run of a program is given.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/compare/alternate.hpp"
#include "engine/compare/compare_main.hpp"
#include "engine/model/flag_value.hpp"

using glint::engine::AlternateArgs;
using glint::engine::AlternateRequest;
using glint::engine::program_argv;
using glint::engine::take_alternate_flags;
using glint::engine::UsageError;

namespace {

struct Args {
    std::vector<std::string> strings;
    std::vector<char*> argv;
    explicit Args(std::vector<std::string> args) : strings(std::move(args)) {
        strings.insert(strings.begin(), "glint-compare");
        for (auto& s : strings) argv.push_back(s.data());
    }
};

AlternateArgs take(std::vector<std::string> args) {
    static std::vector<Args> keep;  // the char* in `rest` point into these
    keep.emplace_back(std::move(args));
    return take_alternate_flags(static_cast<int>(keep.back().argv.size()), keep.back().argv.data());
}

std::vector<std::string> rest(const AlternateArgs& a) { return {a.rest.begin(), a.rest.end()}; }

int compare(std::vector<std::string> args) {
    Args a(std::move(args));
    return glint::engine::compare_main(static_cast<int>(a.argv.size()), a.argv.data());
}

}  // namespace

TEST_CASE("alternate flags: taken out of the command line, the comparison's own flags left") {
    const auto a =
        take({"--alternate=4", "--threshold=5", "--repeat=7", "--keep=out", "base", "new",
              "--fail-if-slower=10", "--", "--bench-min-time=0.05", "--filter=ab", "--", "x"});
    CHECK(a.request.active());
    CHECK(a.request.runs == 4);
    CHECK(a.request.repeat == 7);
    CHECK(a.request.keep == "out");
    CHECK(a.request.flags ==
          std::vector<std::string>{"--bench-min-time=0.05", "--filter=ab", "--", "x"});
    CHECK(rest(a) == std::vector<std::string>{"glint-compare", "--threshold=5", "base", "new",
                                              "--fail-if-slower=10"});
    // Without --alternate nothing is taken: the documents go to the comparison as given.
    const auto plain = take({"a.json", "b1.json,b2.json", "--format=md"});
    CHECK_FALSE(plain.request.active());
    CHECK(rest(plain) ==
          std::vector<std::string>{"glint-compare", "a.json", "b1.json,b2.json", "--format=md"});
}

TEST_CASE("alternate flags: bad input is refused with the fix") {
    auto refusal = [](std::vector<std::string> args) -> std::string {
        try {
            take(std::move(args));
        } catch (const UsageError& e) {
            return e.what();
        }
        return "";
    };
    for (const char* k : {"--alternate=0", "--alternate=-1", "--alternate=four",
                          "--alternate=", "--alternate", "--alternate=1001", "--alternate=2.5"})
        CHECK_MESSAGE(
            refusal({k, "base", "new"}).find("whole number from 1 to 1000") != std::string::npos,
            k);
    CHECK(refusal({"--alternate=4", "--repeat=0", "base", "new"}).find("--repeat") !=
          std::string::npos);
    // --repeat, --keep and FLAGS belong to --alternate.
    CHECK(
        refusal({"--repeat=3", "a.json", "b.json"}).find("--repeat: applies to --alternate only") ==
        0);
    CHECK(refusal({"--keep=dir", "a.json", "b.json"}).find("--keep: applies to --alternate only") ==
          0);
    CHECK(refusal({"a.json", "b.json", "--", "--bench"})
              .find("-- FLAGS: applies to --alternate only") == 0);
    // The command owns each run's document and baseline.
    CHECK(refusal({"--alternate=4", "base", "new", "--", "--bench-json=x.json"})
              .find("--bench-json is glint-compare") != std::string::npos);
    CHECK(refusal({"--alternate=4", "base", "new", "--", "--bench-baseline=x.json"})
              .find("--bench-baseline is") != std::string::npos);
    CHECK(refusal({"--alternate=4", "--repeat=3", "base", "new", "--", "--bench-repeat=5"})
              .find("give one") != std::string::npos);
    // Documents are not programs; two programs exactly.
    CHECK(refusal({"--alternate=4", "a.json", "b.json"})
              .find("runs two programs, not documents ('a.json')") != std::string::npos);
    CHECK(refusal({"--alternate=4", "base", "n1,n2"}).find("not documents ('n1,n2')") !=
          std::string::npos);
    CHECK(refusal({"--alternate=4", "base"}).find("needs two programs, got 1") !=
          std::string::npos);
    CHECK(refusal({"--alternate=4", "a", "b", "c"}).find("needs two programs, got 3") !=
          std::string::npos);
    CHECK(refusal({"--alternate=4", "--keep=a,b", "base", "new"}).find("has a comma") !=
          std::string::npos);
    CHECK(refusal({"--alternate=4", "--keep=", "base", "new"}).find("--keep: needs a value") == 0);
    CHECK(refusal({"--alternate=4", "base", "new"}).empty());
    // --help is never refused: it prints the usage.
    CHECK(refusal({"--alternate=4", "--help"}).empty());
    CHECK(refusal({"--keep=x", "-h"}).empty());
}

TEST_CASE("alternate flags: the refusals are glint-compare's exit status 2") {
    CHECK(compare({"--alternate=0", "/bin/true", "/bin/true"}) == 2);
    CHECK(compare({"--alternate=2", "a.json", "b.json"}) == 2);
    CHECK(compare({"--keep=dir", "a.json", "b.json"}) == 2);
    CHECK(compare({"--alternate=2", "--format=html", "base", "new"}) ==
          2);  // the comparison's own flags too
}

TEST_CASE("alternate: what each run of a program is given") {
    AlternateRequest r;
    r.runs = 4;
    CHECK(program_argv(r, "./b", "D/base-1.json") ==
          std::vector<std::string>{"./b", "--bench", "--bench-repeat=3",
                                   "--bench-json=D/base-1.json"});
    r.repeat = 5;
    r.flags = {"--filter=x", "--pin=auto"};
    CHECK(program_argv(r, "./b", "D/new-2.json") ==
          std::vector<std::string>{"./b", "--bench", "--bench-repeat=5",
                                   "--bench-json=D/new-2.json", "--filter=x", "--pin=auto"});
    // FLAGS that give --bench or --bench-repeat are not given them twice.
    r.repeat.reset();
    r.flags = {"--bench", "--bench-repeat=10"};
    CHECK(program_argv(r, "./b", "j") ==
          std::vector<std::string>{"./b", "--bench-json=j", "--bench", "--bench-repeat=10"});
}
