// One case's profile as reported (engine/profile/case_profile.hpp): the header line, the flat
// profile's rows and its limits, JSON (top 25 functions, at most 1000 stacks), the notes (in
// JSON each case's in full; in text only a note about the case alone, the rest in the run's
// footer: profile_notes_test.cpp).
#include <doctest/doctest.h>

#include <cmath>

#include <fmt/format.h>

#include "engine/profile/case_profile.hpp"

using namespace glint::engine;
using namespace glint::engine::profile;

namespace {

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

// The notes' full texts (JSON rows[].profile.notes), one per line.
std::string notes_of(const CaseProfile& p) {
    std::string out;
    for (const auto& n : p.notes()) out += n.text + "\n";
    return out;
}

// A timer profile of `functions` functions, function i with i+1 samples, complete or not.
CaseProfile made(int functions, bool complete = true) {
    CaseProfile p;
    p.name = "case";
    p.spec.event = glint::os::SampleEvent::cpu_clock;
    p.spec.period = 100000;
    for (int i = 0; i < functions; ++i) {
        const FrameId id = p.profile.intern({fmt::format("f{}", i), "/bin/x", false});
        const FrameId caller = p.profile.intern({fmt::format("g{}", i), "/bin/x", false});
        for (int k = 0; k <= i; ++k) p.profile.add({{id, "x.cpp", 10}, {caller, "", 0}}, complete);
    }
    p.counts.samples = p.profile.samples();
    p.limits.samples = p.counts.samples;
    p.pass.times_ok = true;
    p.pass.times.running_ns = p.counts.samples * 100000;
    p.pass.times.count = p.pass.times.running_ns;
    p.pass.wall_ns = 123000000;
    return p;
}

}  // namespace

TEST_CASE("case profile: the header line states samples, rate, cost, losses and completeness") {
    CaseProfile p = made(3);
    p.counts.lost = 4;
    p.counts.throttled = 2;
    const auto lines = profile_lines(p);
    CHECK(lines[0] ==
          "profile case: 6 samples, cpu-clock every 100 µs of CPU time (10000 Hz), "
          "10000 Hz achieved, pass 123 ms; lost 4, throttled 2; stacks complete 100.0%");
    CHECK(contains(notes_of(p), "4 samples lost: the ring buffer was full between drains"));
    CHECK(contains(notes_of(p), "throttled 2 times"));
    CHECK_FALSE(contains(joined(lines), "note:"));  // the run's footer says them once
    // f2 has 3 of 6 samples: 50.0% ± sqrt(3)/6 = 28.9%.
    CHECK(contains(lines[2], " 50.0%  28.9%       3  50.0%  f2  x.cpp:10"));
}

TEST_CASE("case profile: at most 8 functions printed, the rest summed") {
    const auto lines = profile_lines(made(12));
    std::size_t rows = 0;
    for (const auto& l : lines) rows += contains(l, "x.cpp:10");
    CHECK(rows == 8);
    CHECK(contains(joined(lines), "(other functions)"));
}

TEST_CASE("case profile: below 90% complete stacks, inclusive shares are omitted and why") {
    const CaseProfile p = made(3, false);
    const std::string text = joined(profile_lines(p));
    CHECK(contains(text, "stacks complete 0.0%"));
    CHECK(contains(notes_of(p), "0% of stacks reach the case's entry"));
    CHECK(contains(notes_of(p), "-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"));
    CHECK(contains(text, "      —  f2"));
    CHECK(profile_json(p).at("functions").as_array()[0].at("inclusiveShare").is_null());
    CHECK(kCompleteForInclusive == 0.9);
}

TEST_CASE("case profile: kernel time above 5% of the sampled window is noted") {
    CaseProfile p = made(3);
    p.pass.times.count = p.counts.samples * 100000 * 100 / 94;  // 6% not in samples
    CHECK(p.kernel_share() == doctest::Approx(0.06).epsilon(0.02));
    CHECK(contains(notes_of(p), "6% of the sampled CPU time was in the kernel"));
    p.pass.times.count = p.counts.samples * 100000 * 100 / 96;
    CHECK_FALSE(contains(notes_of(p), "in the kernel"));
    p.spec.event = glint::os::SampleEvent::cycles;  // a cycles count is not time
    CHECK(std::isnan(p.kernel_share()));
}

TEST_CASE("case profile: too few samples when the time bound ended the pass") {
    CaseProfile p = made(2);
    p.limits.samples = 5000;
    p.limits.time_ns = 250e6;
    p.pass.time_bound = true;
    CHECK(contains(notes_of(p),
                   "only 3 of the 5000 samples asked for: the time bound (250 ms) ended the pass"));
    CHECK(profile_json(p).at("notes").as_array()[0].as_string() == p.notes()[0].text);
}

TEST_CASE("case profile: JSON keeps the top 25 functions and at most 1000 stacks") {
    const CaseProfile p = made(30);
    const Json j = profile_json(p);
    CHECK(j.at("functions").size() == 25);
    CHECK(j.at("functions").as_array()[0].at("function").as_string() == "f29");
    CHECK(j.at("functions").as_array()[0].at("selfShareError").as_number() ==
          doctest::Approx(std::sqrt(30.0) / 465));
    CHECK(j.at("samples").as_number() == 465);
    CHECK(j.at("period").as_number() == 100000);
    CHECK(j.at("frequencyHz").is_null());

    CaseProfile many;
    many.name = "many";
    for (int i = 0; i < 1200; ++i)
        many.profile.add({{many.profile.intern({fmt::format("s{}", i), "", false}), "", 0}}, true);
    many.counts.samples = many.profile.samples();
    const Json m = profile_json(many);
    REQUIRE(m.at("folded").size() == 1001);
    CHECK(m.at("folded").as_array().back().at("stack").as_string() == "[other stacks]");
    CHECK(m.at("folded").as_array().back().at("samples").as_number() == 200);
    CHECK(m.at("rateHz").is_null());  // no times: not measured, never 0
}

TEST_CASE("case profile: folded lines carry the case as their root") {
    const auto lines = folded_lines(made(2));
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == "case;g0;f0 1");
    CHECK(lines[1] == "case;g1;f1 2");
}

TEST_CASE("case profile: a pass with no samples says so, with no kernel share of nothing") {
    // 1 Hz for 1 ms: the timer counted 1 ms of CPU time and took no sample.
    CaseProfile p = made(0);
    p.spec.period = 1000000000;
    p.limits.samples = 2000;
    p.pass.times.running_ns = 1000000;
    p.pass.times.count = 1000000;
    CHECK(std::isnan(p.kernel_share()));
    const std::string text = joined(profile_lines(p));  // about this case alone: under it
    CHECK(contains(text,
                   "  note: no samples of the case: the sampler ran for 1 ms and samples every "
                   "1e+06 µs of CPU time (1 Hz)"));
    CHECK_FALSE(contains(notes_of(p), "in the kernel"));
    CHECK(profile_json(p).at("kernelShare").is_null());
}

TEST_CASE(
    "case profile: samples not of the case are counted and said, and leave the shares alone") {
    CaseProfile p = made(2);  // 3 samples of the case
    p.counts.samples += 7;
    p.pass.times.running_ns = p.counts.samples * 100000;
    p.pass.times.count = p.pass.times.running_ns;
    p.dropped_glint = 2;
    p.dropped_after = 5;
    p.pass.call_sampling = CallSampling::grouped;
    p.pass.toggle_ns = 1500;
    p.pass.after_ns = 20;
    CHECK(contains(joined(profile_lines(p)), "profile case: 3 samples,"));
    const std::string text = notes_of(p);
    CHECK(
        contains(text,
                 "2 samples of glint's own code dropped (switching the sampler on and off, calling "
                 "into the case)"));
    CHECK(contains(text,
                   "calls grouped between one enable and disable of the sampler: one pair "
                   "(1500 ns) costs more than after() (20 ns)"));
    CHECK(contains(text, "5 samples of after() dropped"));
    const Json j = profile_json(p);
    CHECK(j.at("samples").as_number() == 3);
    CHECK(j.at("droppedGlintSamples").as_number() == 2);
    CHECK(j.at("droppedAfterSamples").as_number() == 5);
    CHECK(j.at("callSampling").as_string() == "grouped");
}

TEST_CASE("case profile: a long function name is shortened by rule to fit a 100-column row") {
    CaseProfile p;
    p.name = "strings";
    const std::string name =
        "strlib::to_upper(std::__cxx11::basic_string<char, std::char_traits<char>, "
        "std::allocator<char> > const&)";
    p.profile.add({{p.profile.intern({name, "/bin/strlib_bench", false}), "", 0}}, true);
    p.counts.samples = p.profile.samples();
    const auto lines = profile_lines(p);
    REQUIRE(lines.size() == 3);
    CHECK(lines[2] ==
          "  100.0% 100.0%       1 100.0%  strlib::to_upper(std::__cxx11::basic_string<…> const&)"
          "  strlib_bench");
    CHECK(profile_json(p).at("functions").as_array()[0].at("function").as_string() == name);
    CHECK(folded_lines(p)[0] == "strings;" + name + " 1");
}
