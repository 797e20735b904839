// Which sampling event --profile uses (engine/profile/sampling_choice.hpp), decided against the
// fake kernel behind the sys() seam (support/fake_perf_kernel.hpp): a PMU with or without
// precise sampling, no PMU, a locked-memory limit on the ring, and nothing at all. Every probe
// closes what it opened.
#include <doctest/doctest.h>

#include <linux/perf_event.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <optional>

#include "engine/profile/sampling_choice.hpp"
#include "support/fake_perf_kernel.hpp"

using namespace glint::engine;
using namespace glint::engine::profile;
using glint::test::FakePerfKernel;

namespace {

// Every probe closed what it opened.
void check_all_closed(const FakePerfKernel& k) { CHECK(k.live_fds() == 0); }

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// A sysfs PMU listing with a CPU PMU that advertises `max_precise` (none: no caps file).
struct FakePmus {
    std::filesystem::path root = std::filesystem::temp_directory_path() /
                                 ("glint-sampling-pmus-" + std::to_string(getpid()));
    explicit FakePmus(std::optional<int> max_precise) {
        std::filesystem::create_directories(root / "cpu" / "caps");
        std::filesystem::create_directories(root / "software");
        if (max_precise) {
            std::ofstream(root / "cpu" / "caps" / "max_precise") << *max_precise << "\n";
        }
    }
    ~FakePmus() { std::filesystem::remove_all(root); }
    std::string path() const { return root.string(); }
};

}  // namespace

TEST_CASE("sampling choice: cycles at the asked rate, with the highest precise_ip that opens") {
    FakePerfKernel k;
    k.max_precise_ip = 2;
    const FakePmus pmus(3);  // advertised 3, the kernel opens 2
    const SamplingPlan plan = plan_sampling(4000, pmus.path());
    check_all_closed(k);
    REQUIRE(plan.ok);
    CHECK(plan.spec.event == glint::os::SampleEvent::cycles);
    CHECK(plan.spec.frequency == 4000);
    CHECK(plan.spec.period == 0);
    CHECK(plan.spec.precise_ip == 2);
    CHECK(plan.spec.exclude_kernel);
    CHECK(plan.spec.callchain);
    CHECK(plan.precise_offered);
    CHECK(contains(plan.how, "cycles overflow interrupts at ~4000 Hz"));
    CHECK(contains(plan.precise, "precise_ip=2"));
    // What reached the kernel: frequency mode, user mode only, user call chains.
    const perf_event_attr& a = k.opened.back();
    CHECK(a.freq == 1);
    CHECK(a.sample_freq == 4000);
    CHECK(a.exclude_kernel == 1);
    CHECK(a.exclude_callchain_kernel == 1);
    CHECK(a.disabled == 1);
    CHECK((a.sample_type & PERF_SAMPLE_CALLCHAIN) != 0);
}

TEST_CASE(
    "sampling choice: a PMU that advertises no precise sampling gets none, even if it opens") {
    // arm64's PMU driver accepts any precise_ip and honours none: only sysfs can tell.
    FakePerfKernel k;
    k.max_precise_ip = 3;
    const FakePmus pmus(std::nullopt);
    const SamplingPlan plan = plan_sampling(10000, pmus.path());
    check_all_closed(k);
    REQUIRE(plan.ok);
    CHECK(plan.spec.event == glint::os::SampleEvent::cycles);
    CHECK(plan.spec.precise_ip == 0);
    CHECK_FALSE(plan.precise_offered);
    CHECK(contains(plan.precise, "advertises no precise sampling"));
    const Status s = precise_data_source_status(plan);
    CHECK(s.state == Status::State::not_built);
    CHECK(contains(s.reason, "advertises no precise sampling"));
}

TEST_CASE("sampling choice: precise sampling advertised but refused says both") {
    FakePerfKernel k;
    k.max_precise_ip = 0;
    const FakePmus pmus(2);
    const SamplingPlan plan = plan_sampling(10000, pmus.path());
    check_all_closed(k);
    REQUIRE(plan.ok);
    CHECK(plan.spec.precise_ip == 0);
    CHECK(contains(plan.precise,
                   "advertises precise_ip up to 2, but cycles with precise_ip 1..2 does not open"));
}

TEST_CASE("sampling choice: without a PMU the cpu-clock timer, with the reason") {
    FakePerfKernel k;
    k.hardware_errno = ENOENT;
    const auto root = std::filesystem::temp_directory_path() / "glint-sampling-pmus";
    std::filesystem::create_directories(root / "software");
    const SamplingPlan plan = plan_sampling(10000, root.string());
    check_all_closed(k);
    std::filesystem::remove_all(root);
    REQUIRE(plan.ok);
    CHECK(plan.spec.event == glint::os::SampleEvent::cpu_clock);
    CHECK(plan.spec.period == 100000);  // ns: 1/10 kHz
    CHECK(plan.spec.exclude_kernel);
    CHECK(contains(plan.how, "cpu-clock timer every 100 µs of CPU time (10000 Hz)"));
    REQUIRE_FALSE(plan.notes.empty());
    CHECK(contains(plan.notes[0], "no cycles overflow sampling (no hardware PMU"));
    CHECK(contains(plan.precise, "no hardware sampling event opens"));
    const Status s = overflow_sampling_status(plan);
    CHECK(s.capability == "overflow-sampling");
    CHECK(s.state == Status::State::available);
    CHECK(contains(s.reason, "cpu-clock"));
}

TEST_CASE("sampling choice: a locked-memory limit shrinks the ring, with a note") {
    FakePerfKernel k;
    k.hardware_errno = ENOENT;
    k.mmap_limit_bytes = (1 + kSmallRingPages) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const SamplingPlan plan = plan_sampling(10000);
    check_all_closed(k);
    REQUIRE(plan.ok);
    CHECK(plan.spec.data_pages == kSmallRingPages);
    bool noted = false;
    for (const auto& n : plan.notes) noted |= contains(n, "the ring buffer is 16 pages");
    CHECK(noted);
}

TEST_CASE("sampling choice: nothing opens, overflow-sampling is unavailable with the remedy") {
    FakePerfKernel k;
    k.refuse_all_errno = EACCES;
    const SamplingPlan plan = plan_sampling(10000);
    check_all_closed(k);
    CHECK_FALSE(plan.ok);
    CHECK(contains(plan.reason, "no sampling event opens"));
    CHECK(contains(plan.reason, "EACCES"));
    CHECK_FALSE(plan.remedy.empty());
    const Status s = overflow_sampling_status(plan);
    CHECK(s.state == Status::State::unavailable);
    CHECK(s.remedy == plan.remedy);
}
