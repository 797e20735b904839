// Overflow sampling in the arm64 guest (--profile's os/ and engine/profile/ layers on a real
// arm64 kernel and its PMU driver). Under QEMU's -icount the cycle counter advances exactly one
// per instruction, and QEMU raises the cycle counter's overflow interrupt exactly, so a fixed
// sample period on cycles splits samples between two functions exactly as their instructions
// split: the test asserts it within one sample. At one sample per 10007 instructions the
// kernel's interrupt throttling would step in (the handler's own instructions advance the
// virtual clock too), so the test lifts it while it samples (kernel.perf_event_max_sample_rate,
// then kernel.perf_cpu_time_max_percent=0) and restores it after. The instructions event and the
// cpu-clock timer are sampled the same way and reported ("glint-measure:" lines), not asserted:
// QEMU arms an overflow timer for the cycle counter only, so the instructions event raises (almost)
// no overflow interrupts, and the timer follows the virtual clock, not the instructions.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/model/json.hpp"
#include "guest_events.hpp"
#include "loops.hpp"
#include "os/sampling.hpp"
#include "os/symbols.hpp"

using glint::os::SampleEvent;

namespace {

std::string read_sysctl(const std::string& name) {
    std::ifstream in("/proc/sys/kernel/" + name);
    std::string value;
    in >> value;
    return value;
}

bool write_sysctl(const std::string& name, const std::string& value) {
    std::ofstream out("/proc/sys/kernel/" + name);
    out << value << "\n";
    out.flush();
    return out.good();
}

// Lifts the kernel's sample-rate throttling for its lifetime (the rate first: the kernel
// refuses to change it once throttling is off).
struct Unthrottled {
    std::string rate = read_sysctl("perf_event_max_sample_rate");
    std::string percent = read_sysctl("perf_cpu_time_max_percent");
    bool ok = write_sysctl("perf_event_max_sample_rate", "1000000") &&
              write_sysctl("perf_cpu_time_max_percent", "0");
    ~Unthrottled() {
        write_sysctl("perf_cpu_time_max_percent", percent);
        write_sysctl("perf_event_max_sample_rate", rate);
    }
};

constexpr std::uint64_t kPeriod = 10007;         // a prime: no resonance with the loops' 3 and 8
constexpr std::uint64_t kLoop3Passes = 4000000;  // 12M instructions
constexpr std::uint64_t kLoop8Passes = 500000;   //  4M instructions

struct Split {
    std::uint64_t three = 0, eight = 0, other = 0;
    glint::os::SampleCounts counts;
    int open_error = 0;
};

// Samples loop_3 (12M instructions) then loop_8 (4M) with `event` every `period`.
Split sample_split(SampleEvent event, std::uint64_t period) {
    Split s;
    glint::os::Sampler sampler;
    glint::os::SamplerSpec spec;
    spec.event = event;
    spec.period = period;
    spec.exclude_kernel = true;
    s.open_error = sampler.open(spec);
    if (s.open_error) return s;
    glint::os::Symbolizer symbols;
    const auto three = reinterpret_cast<std::uint64_t>(&glint::guest::loop_3);
    const auto eight = reinterpret_cast<std::uint64_t>(&glint::guest::loop_8);
    sampler.enable();
    glint::guest::loop_3(nullptr, kLoop3Passes);
    glint::guest::loop_8(nullptr, kLoop8Passes);
    sampler.disable();
    sampler.drain([&](const glint::os::SampleRecord& r) {
        const auto start = symbols.lookup(r.ip).function_start;
        if (start == three) ++s.three;
        else if (start == eight) ++s.eight;
        else ++s.other;
    });
    s.counts = sampler.counts();
    return s;
}

}  // namespace

TEST_CASE(
    "guest profile: a 3:1 instruction split sampled on cycles reads 75/25 within one sample") {
    const Unthrottled unthrottled;
    REQUIRE_MESSAGE(unthrottled.ok, "cannot lift the kernel's sample-rate throttling");
    const Split s = sample_split(SampleEvent::cycles, kPeriod);
    REQUIRE_MESSAGE(s.open_error == 0, "cycles sampling did not open: errno ", s.open_error);
    const double want_three = 3.0 * kLoop3Passes / kPeriod;  // 1199.2
    const double want_eight = 8.0 * kLoop8Passes / kPeriod;  //  399.7
    std::printf(
        "glint-measure: cpu=%s profile cycles every %llu: loop_3 %llu samples (12M "
        "instructions: %.1f expected), loop_8 %llu (4M: %.1f), elsewhere %llu, lost %llu, "
        "throttled %llu\n",
        glint::guest::guest_cpu().c_str(), static_cast<unsigned long long>(kPeriod),
        static_cast<unsigned long long>(s.three), want_three,
        static_cast<unsigned long long>(s.eight), want_eight,
        static_cast<unsigned long long>(s.other), static_cast<unsigned long long>(s.counts.lost),
        static_cast<unsigned long long>(s.counts.throttled));
    CHECK(std::abs(static_cast<double>(s.three) - want_three) <= 1.0);
    CHECK(std::abs(static_cast<double>(s.eight) - want_eight) <= 1.0);
    CHECK(s.other <= 1);  // the few instructions between enable and disable
    CHECK(s.counts.lost == 0);
    CHECK(s.counts.throttled == 0);
    const double share = static_cast<double>(s.three) / static_cast<double>(s.three + s.eight);
    CHECK(share == doctest::Approx(0.75).epsilon(0.002));
}

TEST_CASE("guest profile: the instructions event and the cpu-clock timer, reported") {
    const Unthrottled unthrottled;
    const Split instr = sample_split(SampleEvent::instructions, kPeriod);
    const Split timer = sample_split(SampleEvent::cpu_clock, 100000);
    std::printf(
        "glint-measure: cpu=%s profile instructions every %llu: open %s, loop_3 %llu "
        "samples, loop_8 %llu, elsewhere %llu (an exact overflow would give 1199/399)\n",
        glint::guest::guest_cpu().c_str(), static_cast<unsigned long long>(kPeriod),
        instr.open_error ? "failed" : "ok", static_cast<unsigned long long>(instr.three),
        static_cast<unsigned long long>(instr.eight), static_cast<unsigned long long>(instr.other));
    std::printf(
        "glint-measure: cpu=%s profile cpu-clock every 100 us: loop_3 %llu samples, "
        "loop_8 %llu, elsewhere %llu\n",
        glint::guest::guest_cpu().c_str(), static_cast<unsigned long long>(timer.three),
        static_cast<unsigned long long>(timer.eight), static_cast<unsigned long long>(timer.other));
    CHECK(timer.open_error == 0);
    CHECK(timer.three > timer.eight);  // the timer still sees where the time goes, roughly
}

TEST_CASE("guest profile: the bench program's --profile sampled cycles and named the batch") {
    const char* path = std::getenv("GLINT_BENCH_JSON");
    REQUIRE_MESSAGE(path != nullptr, "run by the rig's /init, which sets GLINT_BENCH_JSON");
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    const glint::engine::Json doc = glint::engine::Json::parse(text.str());
    const glint::engine::Json& row = doc.at("rows").as_array().at(0);
    REQUIRE(row.contains("profile"));
    const glint::engine::Json& p = row.at("profile");
    CHECK(p.at("event").as_string() == "cycles");
    CHECK(p.at("samples").as_number() > 0);
    CHECK(p.at("rateHz").as_number() > 0);
    CHECK(p.at("lost").as_number() == 0);
    REQUIRE(p.at("functions").size() > 0);
    const std::string top = p.at("functions").as_array()[0].at("function").as_string();
    CHECK(top.find("run_batch") != std::string::npos);  // the case's compiled batch
    const glint::engine::Json& tier = doc.at("meta").at("tiers").at("profile");
    std::printf(
        "glint-measure: cpu=%s bench --profile: %s, %.0f samples at %.0f Hz; top %s "
        "%.1f%%; precise: %s\n",
        glint::guest::guest_cpu().c_str(), tier.at("sampling").as_string().c_str(),
        p.at("samples").as_number(), p.at("rateHz").as_number(), top.c_str(),
        100 * p.at("functions").as_array()[0].at("selfShare").as_number(),
        tier.at("precise").as_string().c_str());
}
