// End to end: --profile on the profile fixture (tests/e2e/fixtures/profile.cpp, built with -g
// and frame pointers), sampled by this host's sampler (the cpu-clock timer on a VM without a
// PMU, cycles where there is one).
#include <doctest/doctest.h>

#include <algorithm>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "engine/model/json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using glint::engine::Json;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;
using glint::test::temp_path;

namespace {

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

using Run = glint::test::DocumentRun<Json>;

Run profile_run(const std::string& filter, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{fixture_path("profile"), "--bench", "--bench-min-time=0.05",
                                  "--profile", "--filter=" + filter};
    // The default time bound (1 s of wall time) is reached before 2,000 samples when the machine
    // is loaded (cpu-clock samples CPU time): tests that need the sample target allow longer.
    const bool bounded = std::any_of(extra.begin(), extra.end(), [](const std::string& a) {
        return a.rfind("--profile-time=", 0) == 0;
    });
    if (!bounded) argv.push_back("--profile-time=60000");
    argv.insert(argv.end(), extra.begin(), extra.end());
    return glint::test::run_with_document<Json>(argv, temp_path(filter) + ".json");
}

const Json& row(const Json& doc, const std::string& name) {
    for (const auto& r : doc.at("rows").as_array())
        if (r.at("name").as_string() == name) return r;
    FAIL("no row " << name);
    return doc;
}

// The profile's entry for the function whose name contains `name`, or nullptr.
const Json* function(const Json& profile, const std::string& name) {
    for (const auto& f : profile.at("functions").as_array())
        if (contains(f.at("function").as_string(), name)) return &f;
    return nullptr;
}

// The line of the fixture that carries `marker`.
std::uint32_t fixture_line(const std::string& marker) {
    std::ifstream in(std::string(GLINT_TEST_SOURCE_DIR) + "/tests/e2e/fixtures/profile.cpp");
    std::string line;
    for (std::uint32_t n = 1; std::getline(in, line); ++n)
        if (contains(line, marker)) return n;
    return 0;
}

}  // namespace

TEST_CASE("e2e profile: a 3:1 split of work between two functions reads 75/25, each named") {
    const Run run = profile_run("split");
    REQUIRE(run.result.exit_code == 0);
    const Json& p = row(run.doc, "split").at("profile");
    CAPTURE(run.result.out);
    const Json* three = function(p, "work_three");
    const Json* one = function(p, "work_one");
    REQUIRE(three);
    REQUIRE(one);
    CHECK(three->at("selfShare").as_number() == doctest::Approx(0.75).epsilon(0.05 / 0.75));
    CHECK(one->at("selfShare").as_number() == doctest::Approx(0.25).epsilon(0.05 / 0.25));
    CHECK(p.at("functions").as_array()[0].at("function").as_string() ==
          three->at("function").as_string());
    // The flat profile after the table names both, with their shares.
    CHECK(contains(run.result.out, "profile split: "));
    CHECK(contains(run.result.out, "work_three"));
    CHECK(contains(run.result.out, "work_one"));
    CHECK(run.result.out.find("profile split: ") > run.result.out.find("╰"));  // after the table
}

TEST_CASE("e2e profile: an inlined helper is attributed to its own name and line") {
    const Run run = profile_run("inlined");
    REQUIRE(run.result.exit_code == 0);
    const Json& p = row(run.doc, "inlined").at("profile");
    CAPTURE(run.result.out);
    const Json* mix = function(p, "mix");
    REQUIRE(mix);
    CHECK(mix->at("inlined").as_bool());
    CHECK(mix->at("line").as_number() == fixture_line("PROFILE-MIX-LINE"));
    CHECK(contains(mix->at("file").as_string(), "fixtures/profile.cpp"));
    CHECK(mix->at("self").as_number() > 100);
    const Json* heavy = function(p, "heavy");
    REQUIRE(heavy);
    CHECK_FALSE(heavy->at("inlined").as_bool());
    // heavy contains mix: its inclusive samples hold mix's self samples (counts, exact; the
    // shares are written with 6 significant digits and their sum can round past the total).
    CHECK(heavy->at("inclusive").as_number() >=
          heavy->at("self").as_number() + mix->at("self").as_number());
    CHECK(contains(run.result.out, "mix [inlined]"));
}

TEST_CASE("e2e profile: JSON carries the profile, its rate, cost and losses") {
    const Run run = profile_run("split");
    REQUIRE(run.result.exit_code == 0);
    const Json& p = row(run.doc, "split").at("profile");
    // The pass stops once the sampler took 2000 samples; those of glint's own code (switching
    // the sampler, calling into the case) are dropped and counted apart from the case's.
    CHECK(p.at("samples").as_number() + p.at("droppedGlintSamples").as_number() +
              p.at("droppedAfterSamples").as_number() >=
          2000);
    CHECK(p.at("samples").as_number() >= 1900);
    CHECK(p.at("requestedSamples").as_number() == 2000);
    CHECK(p.at("lost").as_number() == 0);
    CHECK(p.at("throttled").is_number());
    CHECK(p.at("rateHz").as_number() > 0);
    CHECK(p.at("passNs").as_number() > 0);
    CHECK(p.at("sampledNs").as_number() > 0);
    CHECK(p.at("completeStacks").as_number() >= 0.9);
    CHECK_FALSE(p.at("timeBound").as_bool());
    const std::string event = p.at("event").as_string();
    CHECK((event == "cpu-clock" || event == "cycles"));
    double folded = 0;
    for (const auto& s : p.at("folded").as_array()) folded += s.at("samples").as_number();
    CHECK(folded == p.at("samples").as_number());
    CHECK_FALSE(row(run.doc, "split").contains("countIterations"));  // no counting pass ran
    const Json& meta = run.doc.at("meta").at("tiers").at("profile");
    CHECK(meta.at("status").as_string() == "available");
    CHECK(contains(meta.at("symbols").as_string(), "ELF symbol tables"));
}

// The folded stacks a run wrote to `path` (then removed): each case's samples by its root frame;
// the file holds more than `min_lines` distinct stacks.
std::map<std::string, double> folded_sums(const std::string& path, std::size_t min_lines = 3) {
    std::ifstream in(path);
    REQUIRE(in);
    std::map<std::string, double> sums;
    std::string line;
    std::size_t lines = 0;
    while (std::getline(in, line)) {
        ++lines;
        const std::size_t space = line.rfind(' ');
        REQUIRE(space != std::string::npos);
        const std::string stack = line.substr(0, space);
        const std::string count = line.substr(space + 1);
        REQUIRE(count.find_first_not_of("0123456789") == std::string::npos);
        REQUIRE(stack.find(';') != std::string::npos);  // root (the case) and at least one frame
        sums[stack.substr(0, stack.find(';'))] += std::stod(count);
    }
    std::remove(path.c_str());
    CHECK(lines > min_lines);
    return sums;
}

TEST_CASE(
    "e2e profile: --profile-folded writes folded stacks that sum to the samples, with and without "
    "--isolate") {
    // Under --isolate each child hands its cases' stacks back; the parent writes the file once.
    for (const std::vector<std::string>& isolation : {std::vector<std::string>{}, {"--isolate"}}) {
        CAPTURE(isolation.size());
        const std::string folded = temp_path("folded") + ".txt";
        std::vector<std::string> flags{"--profile-folded=" + folded};
        flags.insert(flags.end(), isolation.begin(), isolation.end());
        const Run run = profile_run("*", flags);
        REQUIRE(run.result.exit_code == 0);
        const auto sums = folded_sums(folded);
        CHECK(sums.size() == 4);
        // Each case's root frame is its display name (engine/model/row.hpp).
        for (const auto& [case_name, root] :
             std::vector<std::pair<std::string, std::string>>{{"split", "split"},
                                                              {"inlined", "inlined"},
                                                              {"per_call", "cases/per_call"},
                                                              {"short_call", "cases/short_call"}}) {
            const std::string name =
                case_name;  // a structured binding cannot be captured (clang 14)
            CAPTURE(name);
            REQUIRE(sums.count(root));
            CHECK(sums.at(root) == row(run.doc, name).at("profile").at("samples").as_number());
        }
        CHECK(contains(glint::test::unwrapped(run.result.out),
                       "profile: folded stacks of 4 cases written to " + folded));
    }
}

TEST_CASE("e2e profile: a per-call case is sampled in timed(), never in after()") {
    const Run run = profile_run("cases/per_call", {"--profile-time=5000"});
    REQUIRE(run.result.exit_code == 0);
    const Json& p = row(run.doc, "per_call").at("profile");
    CAPTURE(run.result.out);
    CHECK(function(p, "verify_slowly") == nullptr);  // after() runs twice as long as timed()
    const Json* three = function(p, "work_three");
    REQUIRE(three);
    CHECK(three->at("selfShare").as_number() >= 0.9);
}

// Frames of glint's own runner, sampling pass, sampler toggles or their system call (the
// header-only wrapper the case's timed() runs in, glint::detail::PerCallImpl, is the case's).
bool glint_frame(const std::string& f) {
    for (const char* own :
         {"glint::engine::", "glint::os::", "ioctl", "run_sampled", "run_inputs", "Sampler::"})
        if (contains(f, own)) return true;
    return false;
}

TEST_CASE(
    "e2e profile: a ~40 ns per-call case is sampled with its calls grouped, never a profile of "
    "glint") {
    const Run run = profile_run("cases/short_call", {"--profile-time=5000"});
    REQUIRE(run.result.exit_code == 0);
    CAPTURE(run.result.out);
    const Json& p = row(run.doc, "short_call").at("profile");
    CHECK(p.at("callSampling").as_string() == "grouped");
    CHECK(contains(glint::test::unwrapped(run.result.out),
                   "calls grouped between one enable and disable of the sampler"));
    for (const auto& f : p.at("functions").as_array()) {
        CAPTURE(f.at("function").as_string());
        CHECK_FALSE(glint_frame(f.at("function").as_string()));
    }
    for (const auto& s : p.at("folded").as_array()) {
        CAPTURE(s.at("stack").as_string());
        CHECK_FALSE(glint_frame(s.at("stack").as_string()));
    }
    const Json* tiny = function(p, "work_tiny");
    REQUIRE(tiny);
    CHECK(tiny->at("selfShare").as_number() >= 0.5);
    CHECK(p.at("samples").as_number() >= 100);
    CHECK_FALSE(contains(run.result.out, "100% of the sampled CPU time was in the kernel"));
}

TEST_CASE("e2e profile: a pass with no samples says so, not a share of nothing") {
    // 1 Hz for 1 ms: no sample can fall in the pass.
    const Run run = profile_run("split", {"--profile=1", "--profile-time=1"});
    REQUIRE(run.result.exit_code == 0);
    CAPTURE(run.result.out);
    const Json& p = row(run.doc, "split").at("profile");
    REQUIRE(p.at("samples").as_number() == 0);
    CHECK(p.at("kernelShare").is_null());
    CHECK(contains(run.result.out, "note: no samples of the case: the sampler ran for"));
    CHECK_FALSE(contains(run.result.out, "in the kernel"));
}

TEST_CASE("e2e profile: a case too short for the samples asked says so") {
    const Run run = profile_run("split", {"--profile-samples=1000000", "--profile-time=50"});
    REQUIRE(run.result.exit_code == 0);
    const Json& p = row(run.doc, "split").at("profile");
    CHECK(p.at("timeBound").as_bool());
    CHECK(p.at("samples").as_number() < 1000000);
    CHECK(contains(
        glint::test::unwrapped(run.result.out),
        "fewer than the 1000000 samples asked for: the time bound (50 ms) ended the pass"));
    bool noted = false;  // other notes (a kernel share, dropped samples) may come before it
    for (const auto& note : p.at("notes").as_array())
        noted = noted || contains(note.as_string(), "of the 1000000 samples asked for");
    CHECK(noted);
}

TEST_CASE("e2e profile: a stripped binary profiles to module+offset, with a note") {
    const std::string stripped = temp_path("glint_e2e_profile_stripped");
    REQUIRE(run_process({"/usr/bin/strip", "-o", stripped, fixture_path("profile")}).exit_code ==
            0);
    const std::string json = stripped + ".json";
    const auto r = run_process({stripped, "--bench", "--bench-min-time=0.05", "--profile",
                                "--filter=split", "--bench-json=" + json});
    std::remove(stripped.c_str());
    REQUIRE(r.exit_code == 0);
    const Json doc = Json::parse(read_file(json));
    std::remove(json.c_str());
    const Json& p = row(doc, "split").at("profile");
    const std::string top = p.at("functions").as_array()[0].at("function").as_string();
    CHECK(top.rfind("glint_e2e_profile_stripped+", 0) == 0);
    CHECK(contains(top, "+0x"));
    bool noted = false;
    for (const auto& n : p.at("notes").as_array()) noted |= contains(n.as_string(), "stripped");
    CHECK(noted);
    CHECK(contains(r.out, "glint_e2e_profile_stripped+"));
    CHECK(contains(r.out, ": stripped: "));
    CHECK(p.at("completeStacks").as_number() >= 0.9);  // cut at the entry without symbols
}

TEST_CASE("e2e profile: bad --profile flags are usage errors, before anything is measured") {
    const std::pair<std::vector<std::string>, std::string> cases[] = {
        {{"--profile=0"}, "--profile: must be at least 1, got 0"},
        {{"--profile=fast"}, "--profile: 'fast' is not a positive integer"},
        {{"--profile=1000000"},
         "--profile: 1000000 is out of range; it must be between 1 and 100000"},
        {{"--profile-samples=100000000"},
         "--profile-samples: 100000000 is out of range; it must be between 1 and 10000000"},
        {{"--profile-time=1e9"},
         "--profile-time: 1e9 is out of range; it must be between 1 and 600000"},
        {{"--profile-samples=-3"}, "--profile-samples: must be a positive integer"},
        {{"--profile-time=0"}, "--profile-time: must be greater than 0"},
        {{"--profile-folded=/nonexistent-dir/x.folded"}, "--profile-folded: cannot write"},
        {{"--profile-folded"}, "--profile-folded: needs a value"},
    };
    for (const auto& entry : cases) {
        const auto& [flags, message] = entry;
        CAPTURE(entry.first[0]);  // clang 14 cannot capture a structured binding
        std::vector<std::string> argv{fixture_path("profile"), "--bench"};
        argv.insert(argv.end(), flags.begin(), flags.end());
        const auto r = run_process(argv);
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, message));
        CHECK_FALSE(contains(r.out, "╭"));
    }
}

TEST_CASE(
    "e2e profile: under --isolate each case's profile comes back from its child, in JSON and under "
    "the table") {
    const Run run = profile_run("split", {"--isolate"});
    REQUIRE(run.result.exit_code == 0);
    CAPTURE(run.result.out);
    const Json& p = row(run.doc, "split").at("profile");
    CHECK(p.at("samples").as_number() >= 1000);
    REQUIRE(function(p, "work_three"));
    CHECK(contains(run.result.out, "profile split: "));
    CHECK(run.result.out.find("profile split: ") > run.result.out.find("╰"));
}

TEST_CASE("e2e profile: --capabilities reports overflow sampling and symbolization as available") {
    const auto r = run_process({fixture_path("profile"), "--capabilities"});
    REQUIRE(r.exit_code == 0);
    CAPTURE(r.out);
    std::istringstream lines(r.out);
    std::string line;
    bool sampling = false, symbols = false;
    while (std::getline(lines, line)) {
        sampling |= contains(line, "overflow-sampling") && contains(line, "available") &&
                    contains(line, "--profile samples user mode with");
        symbols |= contains(line, "symbolization") && contains(line, "available");
    }
    CHECK(sampling);
    CHECK(symbols);
}

TEST_CASE("e2e profile: each parameterised case's profile is named with its labels") {
    auto r = run_process({fixture_path("params"), "--bench", "--bench-min-time=0.2", "--profile",
                          "--profile-time=20", "--filter=linear,lookup/find"});
    REQUIRE(r.exit_code == 0);
    for (const char* who : {"linear [size=64]", "linear [size=32768]",
                            "lookup/find [op=find,size=10]", "lookup/find [op=find,size=1000]"})
        CHECK(contains(r.out, std::string("profile ") + who + ": "));
}

TEST_CASE("e2e profile: its header and the folded stacks' root frame are the row's display name") {
    const std::string json = temp_path("profile-names") + ".json",
                      folded = temp_path("profile-names") + ".txt";
    const auto r = run_process({fixture_path("names"), "--bench", "--bench-min-time=0.05",
                                "--profile", "--profile-time=200", "--filter=count/comma [len=256",
                                "--profile-folded=" + folded, "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    const std::string name = "count/comma [len=256,op=count]";
    CHECK(contains(r.out, "│ " + name + " "));         // the table's name cell
    CHECK(contains(r.out, "profile " + name + ": "));  // the flat profile's header
    const Json doc = Json::parse(read_file(json));
    const auto& rows = doc.at("rows").as_array();
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].at("displayName").as_string() == name);
    // One case whose body is inlined into glint's loop (its frames are left out): one stack may
    // be all there is.
    const auto sums = folded_sums(folded, 0);
    CHECK(sums.size() == 1);
    CHECK(sums.count(name) == 1);
    std::remove(json.c_str());
    std::remove(folded.c_str());
}

// The notes a run's profiles share are printed once, in its footer, with the cases they apply
// to; none is repeated under each case. The basic fixture is built without frame pointers (and
// without -g), so every case's stacks stop short and each profile carries that note in JSON.
TEST_CASE(
    "e2e profile: each note is printed once per run, with the cases it applies to, with and "
    "without --isolate") {
    for (const bool isolate : {false, true}) {
        CAPTURE(isolate);
        const std::string json = temp_path("notes_once") + ".json";
        std::vector<std::string> argv{
            fixture_path("basic"), "--bench",    "--bench-min-time=0.05", "--profile",
            "--profile-time=50",   "--filter=*", "--bench-json=" + json};
        if (isolate) argv.push_back("--isolate");
        const auto r = run_process(argv);
        REQUIRE(r.exit_code == 0);
        const Json doc = Json::parse(read_file(json));
        std::remove(json.c_str());
        const std::string out = glint::test::unwrapped(r.out);
        CAPTURE(out);
        std::istringstream in(out);
        std::vector<std::string> notes;
        for (std::string line; std::getline(in, line);) {
            CHECK_FALSE(line.starts_with("  note: "));  // no note under a case (all had samples)
            if (line.starts_with("profile note (")) notes.push_back(line);
        }
        REQUIRE_FALSE(notes.empty());
        std::size_t cases = 0, without_frame_pointers = 0;
        for (const auto& row : doc.at("rows").as_array()) {
            const Json* p = row.find("profile");
            if (!p || !p->is_object() || !p->find("notes")) continue;
            ++cases;
            for (const auto& n : p->at("notes").as_array())
                without_frame_pointers += contains(n.as_string(), "lacks frame pointers") ? 1 : 0;
        }
        std::size_t said = 0;
        for (const auto& line : notes) {
            CHECK(std::count(notes.begin(), notes.end(), line) == 1);
            if (!contains(line, "lacks frame pointers")) continue;
            ++said;
            CHECK(contains(line, without_frame_pointers == cases
                                     ? "(all " + std::to_string(cases) + " cases; "
                                     : "(" + std::to_string(without_frame_pointers) + " of " +
                                           std::to_string(cases) + " cases; "));
        }
        CHECK(said == (without_frame_pointers ? 1u : 0u));
        CHECK(cases == 7);
    }
}
