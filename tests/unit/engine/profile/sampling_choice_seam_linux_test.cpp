// Which sampling event --profile uses (engine/profile/sampling_choice.hpp), decided against a
// fake kernel behind the sys() seam: a PMU with or without precise sampling, no PMU, a
// locked-memory limit on the ring, and nothing at all.
#include <doctest/doctest.h>

#include <linux/perf_event.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include "engine/capabilities/capabilities.hpp"
#include "engine/profile/sampling_choice.hpp"
#include "os/linux/sys.hpp"

using namespace glint::engine;
using namespace glint::engine::profile;

namespace {

// The fake kernel's rules, and what it was asked.
struct Rules {
    int hardware_errno = 0;         // refuse PERF_TYPE_HARDWARE
    int max_precise = 0;            // highest precise_ip a hardware event opens with
    int software_errno = 0;         // refuse PERF_TYPE_SOFTWARE
    std::size_t max_ring_pages = 1 << 20;  // mmap of more (data) pages fails with EPERM
    std::vector<perf_event_attr> opened;
    int live = 0;
};
Rules* g_rules = nullptr;
int g_next_fd = 5000;
std::map<void*, std::size_t> g_maps;

int fake_open(perf_event_attr* attr, pid_t, int, int, unsigned long) {
    Rules& r = *g_rules;
    if (attr->type == PERF_TYPE_HARDWARE) {
        if (r.hardware_errno) return errno = r.hardware_errno, -1;
        if (attr->precise_ip > r.max_precise) return errno = EOPNOTSUPP, -1;
    } else if (r.software_errno) {
        return errno = r.software_errno, -1;
    }
    r.opened.push_back(*attr);
    ++r.live;
    return g_next_fd++;
}
int fake_close(int fd) {
    if (fd >= 5000) return --g_rules->live, 0;
    return glint::os::linux_::real_sys().close(fd);
}
void* fake_mmap(void*, std::size_t length, int, int, int, off_t) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    if (length / page - 1 > g_rules->max_ring_pages) return errno = EPERM, MAP_FAILED;
    void* p = std::calloc(1, length);  // a zeroed control page: data_offset/size from the spec
    g_maps[p] = length;
    return p;
}
int fake_munmap(void* p, std::size_t) {
    g_maps.erase(p);
    std::free(p);
    return 0;
}

struct FakeKernel {
    Rules rules;
    glint::os::linux_::SysTable table = glint::os::linux_::real_sys();
    std::optional<glint::os::linux_::ScopedSys> scope;
    FakeKernel() {
        g_rules = &rules;
        table.perf_event_open = fake_open;
        table.close = fake_close;
        table.mmap = fake_mmap;
        table.munmap = fake_munmap;
        scope.emplace(table);
    }
    ~FakeKernel() {
        scope.reset();
        CHECK(rules.live == 0);  // every probe closed what it opened
        CHECK(g_maps.empty());
        g_rules = nullptr;
    }
};

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

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
    FakeKernel k;
    k.rules.max_precise = 2;
    const FakePmus pmus(3);  // advertised 3, the kernel opens 2
    const SamplingPlan plan = plan_sampling(4000, pmus.path());
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
    const perf_event_attr& a = k.rules.opened.back();
    CHECK(a.freq == 1);
    CHECK(a.sample_freq == 4000);
    CHECK(a.exclude_kernel == 1);
    CHECK(a.exclude_callchain_kernel == 1);
    CHECK(a.disabled == 1);
    CHECK((a.sample_type & PERF_SAMPLE_CALLCHAIN) != 0);
}

TEST_CASE("sampling choice: a PMU that advertises no precise sampling gets none, even if it opens") {
    // arm64's PMU driver accepts any precise_ip and honours none: only sysfs can tell.
    FakeKernel k;
    k.rules.max_precise = 3;
    const FakePmus pmus(std::nullopt);
    const SamplingPlan plan = plan_sampling(10000, pmus.path());
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
    FakeKernel k;
    const FakePmus pmus(2);
    const SamplingPlan plan = plan_sampling(10000, pmus.path());
    REQUIRE(plan.ok);
    CHECK(plan.spec.precise_ip == 0);
    CHECK(contains(plan.precise, "advertises precise_ip up to 2, but cycles with precise_ip 1..2 does not open"));
}

TEST_CASE("sampling choice: without a PMU the cpu-clock timer, with the reason") {
    FakeKernel k;
    k.rules.hardware_errno = ENOENT;
    const auto root = std::filesystem::temp_directory_path() / "glint-sampling-pmus";
    std::filesystem::create_directories(root / "software");
    const SamplingPlan plan = plan_sampling(10000, root.string());
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
    FakeKernel k;
    k.rules.hardware_errno = ENOENT;
    k.rules.max_ring_pages = kSmallRingPages;
    const SamplingPlan plan = plan_sampling(10000);
    REQUIRE(plan.ok);
    CHECK(plan.spec.data_pages == kSmallRingPages);
    bool noted = false;
    for (const auto& n : plan.notes) noted |= contains(n, "the ring buffer is 16 pages");
    CHECK(noted);
}

TEST_CASE("sampling choice: nothing opens, overflow-sampling is unavailable with the remedy") {
    FakeKernel k;
    k.rules.hardware_errno = EACCES;
    k.rules.software_errno = EACCES;
    const SamplingPlan plan = plan_sampling(10000);
    CHECK_FALSE(plan.ok);
    CHECK(contains(plan.reason, "no sampling event opens"));
    CHECK(contains(plan.reason, "EACCES"));
    CHECK_FALSE(plan.remedy.empty());
    const Status s = overflow_sampling_status(plan);
    CHECK(s.state == Status::State::unavailable);
    CHECK(s.remedy == plan.remedy);
}
