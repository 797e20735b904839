// The perf tier through its public interface, on a fake kernel behind the sys() seam: the
// permission fallbacks, the no-PMU software group, the LLC drop, scaling, short reads, EINTR,
// batching and per-call brackets, with every status and message checked.
#include <doctest/doctest.h>
#include <algorithm>

#include <unistd.h>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <span>
#include <stdexcept>

#include "engine/cli/options.hpp"
#include "engine/tiers/perf/perf_tier.hpp"
#include "engine/tiers/tier_set.hpp"
#include "support/fake_perf_kernel.hpp"
#include "support/workloads.hpp"

using namespace glint;
using namespace glint::engine;
using glint::test::batched;
using glint::test::FakePerfKernel;

namespace {

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

// A fake /sys/bus/event_source/devices of a VM: no CPU PMU.
struct FakePmuDir {
    std::filesystem::path root;
    explicit FakePmuDir(std::initializer_list<const char*> devices) {
        root = std::filesystem::temp_directory_path() /
               ("glint-pmus-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
        for (const char* d : devices) std::filesystem::create_directories(root / d);
    }
    ~FakePmuDir() { std::filesystem::remove_all(root); }
    static int& counter() {
        static int n = 0;
        return n;
    }
};

std::unique_ptr<CountingTier> tier_for_test(const std::string& pmu_root = "/nonexistent") {
    perf::PerfTierConfig config;
    config.pmu_root = pmu_root;
    config.spin = std::chrono::microseconds(50);
    return perf::make_perf_tier(config);
}

TierRequest perf_options() {
    TierRequest r;
    r.perf.asked = true;
    return r;
}

const Status* find_status(const std::vector<Status>& statuses, std::string_view capability) {
    for (const auto& s : statuses)
        if (s.capability == capability) return &s;
    return nullptr;
}

const catalog::MetricDescriptor* find_metric(const std::vector<catalog::MetricDescriptor>& f,
                                             std::string_view name) {
    for (const auto& d : f)
        if (d.name == name) return &d;
    return nullptr;
}

const catalog::MetricCell* find_cell(const PassResult& r, std::string_view name) {
    for (const auto& c : r.cells)
        if (c.name == name) return &c;
    return nullptr;
}

// A batched body that "executes" 10 units of everything per iteration on the fake.
struct TenUnits {
    FakePerfKernel* fake;
    void operator()() const { fake->work(10); }
};

bool any_line(const std::vector<std::string>& lines, std::string_view part) {
    for (const auto& l : lines)
        if (contains(l, part)) return true;
    return false;
}

}  // namespace

TEST_CASE("seam tier: default hardware group, exact per-iteration values after the bracket cost") {
    FakePerfKernel fake;
    auto tier = tier_for_test();
    CHECK(tier->source() == "perf");
    auto statuses = tier->open(perf_options());
    REQUIRE(statuses.front().state == Status::State::available);
    CHECK(contains(statuses.front().reason,
                   "hardware group: cycles, instructions, branches, "
                   "branch-misses, cache-references, cache-misses, "
                   "page-faults (kernel+user)"));
    REQUIRE(fake.opened.size() >= 7);
    CHECK(int(fake.opened[0].exclude_kernel) == 0);

    TenUnits body{&fake};
    const int enables = fake.enable_calls;
    const int resets = fake.reset_calls;
    PassResult r = tier->count(batched(body), PassPlan{1000, 100});
    // 1000 iterations in brackets of 100, plus the 31 empty brackets interleaved in the pass.
    CHECK(fake.enable_calls - enables == 10 + 31);
    CHECK(fake.reset_calls - resets == 1);  // RESET once per pass
    // Each bracket counted apparatus (100) + 100 iterations x 10; the cost (100) is subtracted.
    CHECK(find_cell(r, "instr")->value == doctest::Approx(10.0));
    CHECK(find_cell(r, "cycles")->value == doctest::Approx(10.0));
    CHECK(find_cell(r, "ipc")->value == doctest::Approx(1.0));
    CHECK(find_cell(r, "branch-miss")->value == doctest::Approx(100.0));
    CHECK(find_cell(r, "page-faults")->value == doctest::Approx(10.0));
    for (const auto& c : r.cells) CHECK_FALSE(c.estimated);

    auto notes = tier->header_notes();
    CHECK(any_line(notes, "read path syscall"));
    CHECK(any_line(notes, "bracket self-cost cycles 100"));
    CHECK(any_line(notes, "(median of 31 at open; one call "));
    CHECK(any_line(notes, "subtracted per pass: a value within 3 standard errors of it renders —"));
    Json meta = tier->meta();
    CHECK(meta.at("readPath").as_string() == "syscall");
    CHECK(meta.at("bracketCost").at("syscall").at("perBracket").at("cycles").as_number() == 100);
    CHECK(meta.at("group").as_string() == "hardware");
    tier->close();
    CHECK(fake.live_fds() == 0);
}

TEST_CASE("seam tier: the subtracted cost follows the apparatus when it drifts after open") {
    FakePerfKernel fake;
    auto tier = tier_for_test();
    REQUIRE(tier->open(perf_options()).front().usable());
    fake.apparatus_count = 700;  // brackets now cost 7x what they cost at open
    TenUnits body{&fake};
    PassResult r = tier->count(batched(body), PassPlan{1000, 1});
    CHECK(find_cell(r, "instr")->value == doctest::Approx(10.0));
    CHECK(find_cell(r, "page-faults")->value == doctest::Approx(10.0));
}

TEST_CASE("seam tier: EACCES for kernel+user falls back to user-only, disclosed") {
    FakePerfKernel fake;
    fake.refuse_kernel_errno = EACCES;
    auto tier = tier_for_test();
    auto statuses = tier->open(perf_options());
    CHECK(statuses.front().state == Status::State::degraded);
    CHECK(contains(statuses.front().reason, "(user-only)"));
    CHECK(contains(statuses.front().remedy, "sysctl kernel.perf_event_paranoid=1"));
    const Status* user_only = find_status(statuses, "perf.user-only");
    REQUIRE(user_only != nullptr);
    CHECK(contains(user_only->reason, "EACCES"));
    CHECK(contains(user_only->reason, "kernel.perf_event_paranoid=2"));
    CHECK(int(fake.opened.front().exclude_kernel) == 1);
    CHECK(any_line(tier->header_notes(), "user-only counting (exclude_kernel)"));
    CHECK(tier->meta().at("excludeKernel").as_bool());
}

TEST_CASE("seam tier: refused even user-only, the tier is unavailable with the paranoid remedy") {
    FakePerfKernel fake;
    fake.refuse_all_errno = EACCES;
    fake.files["/proc/sys/kernel/perf_event_paranoid"] = "3\n";
    auto tier = tier_for_test();
    auto statuses = tier->open(perf_options());
    REQUIRE(statuses.size() == 1);
    CHECK(statuses.front().capability == "perf");
    CHECK(statuses.front().state == Status::State::unavailable);
    CHECK(contains(statuses.front().reason, "refused even user-only counting"));
    CHECK(contains(statuses.front().reason, "EACCES"));
    CHECK(contains(statuses.front().reason, "kernel.perf_event_paranoid=3"));
    CHECK(contains(statuses.front().remedy, "sysctl kernel.perf_event_paranoid=2"));
    for (const auto& d : tier->family()) {
        CHECK_FALSE(d.available);
        CHECK_FALSE(d.is_default);
    }
    auto notes = tier->header_notes();
    REQUIRE(notes.size() == 1);
    CHECK(contains(notes[0], "perf: unavailable, perf columns omitted"));
    CHECK(tier->meta().at("status").as_string() == "unavailable");
}

TEST_CASE("seam tier: EPERM behaves like EACCES") {
    FakePerfKernel fake;
    fake.refuse_kernel_errno = EPERM;
    auto tier = tier_for_test();
    auto statuses = tier->open(perf_options());
    REQUIRE(find_status(statuses, "perf.user-only") != nullptr);
    CHECK(contains(find_status(statuses, "perf.user-only")->reason, "EPERM"));
}

TEST_CASE("seam tier: no hardware PMU (ENOENT, EOPNOTSUPP, ENODEV) opens the software group") {
    for (int error : {ENOENT, EOPNOTSUPP, ENODEV}) {
        CAPTURE(error);
        FakePerfKernel fake;
        fake.hardware_errno = error;
        FakePmuDir pmus{"breakpoint", "software", "tracepoint"};
        auto tier = tier_for_test(pmus.root.string());
        auto statuses = tier->open(perf_options());
        const Status& s = statuses.front();
        CHECK(s.state == Status::State::degraded);
        CHECK(contains(s.reason,
                       "software group only: task-clock, page-faults, "
                       "context-switches, cpu-migrations"));
        CHECK(contains(s.reason, "no hardware PMU"));
        CHECK(contains(s.reason, "breakpoint, software, tracepoint and no CPU PMU"));
        CHECK(contains(s.remedy, "VM with a virtual PMU"));
        const Status* hw = find_status(statuses, "perf.hardware-events");
        REQUIRE(hw != nullptr);
        CHECK(hw->state == Status::State::unavailable);

        auto family = tier->family();
        CHECK(find_metric(family, "task-clock")->is_default);
        CHECK(find_metric(family, "task-clock")->available);
        CHECK(find_metric(family, "context-switches")->is_default);
        CHECK_FALSE(find_metric(family, "ipc")->available);
        CHECK_FALSE(find_metric(family, "ipc")->is_default);
        CHECK(contains(find_metric(family, "ipc")->reason, "no hardware PMU"));
        // The header: one line for the fallback, one for its remedy, then the read path; what
        // follows from the fallback (no rdpmc without hardware counters) is not repeated.
        const auto notes = tier->header_notes();
        for (const auto& l : notes) MESSAGE(l);
        REQUIRE(notes.size() == 3);
        CHECK(notes[0] ==
              "perf: software events only, task-clock, page-faults, context-switches, "
              "cpu-migrations (kernel+user): no hardware PMU, as in a VM without a "
              "virtual PMU (details: --capabilities)");
        CHECK(notes[1] == "perf: remedy: " + hw->remedy);
        CHECK(contains(notes[1], "VM with a virtual PMU"));
        CHECK(notes[2].starts_with("perf: read path syscall"));
        for (const auto& l : notes) CHECK(l.size() <= 300);  // three lines at most, wrapped at 100

        TenUnits body{&fake};
        PassResult r = tier->count(batched(body), PassPlan{200, 50});
        CHECK(find_cell(r, "task-clock")->value == doctest::Approx(10.0));
        CHECK(find_cell(r, "cpu-migrations")->value == doctest::Approx(10.0));
        CHECK(find_cell(r, "ipc") == nullptr);
    }
}

TEST_CASE("seam tier: a hardware member the PMU does not support is dropped on its own") {
    FakePerfKernel fake;
    fake.hardware_config_errno[PERF_COUNT_HW_BRANCH_MISSES] = ENOENT;
    auto tier = tier_for_test();
    auto statuses = tier->open(perf_options());
    CHECK(statuses.front().state == Status::State::degraded);
    const Status* member = find_status(statuses, "perf.member");
    REQUIRE(member != nullptr);
    CHECK(contains(member->reason, "branch-misses is not supported by this PMU (ENOENT"));
    auto family = tier->family();
    CHECK_FALSE(find_metric(family, "branch-miss")->available);
    CHECK(find_metric(family, "instr")->available);
    TenUnits body{&fake};
    PassResult r = tier->count(batched(body), PassPlan{100, 100});
    CHECK(std::isnan(find_cell(r, "branch-miss")->value));
    CHECK(find_cell(r, "instr")->value == doctest::Approx(10.0));
}

TEST_CASE("seam tier: a running/enabled ratio of 0.5 at open drops the LLC pair") {
    FakePerfKernel fake;
    fake.ratio = [](std::size_t members) { return members >= 7 ? 0.5 : 1.0; };
    auto tier = tier_for_test();
    auto statuses = tier->open(perf_options());
    CHECK(statuses.front().state == Status::State::degraded);
    CHECK(contains(statuses.front().reason,
                   "cycles, instructions, branches, branch-misses, page-faults (kernel+user)"));
    const Status* llc = find_status(statuses, "perf.llc-pair");
    REQUIRE(llc != nullptr);
    CHECK(contains(llc->reason, "running/enabled 0.500"));
    CHECK(contains(llc->remedy, "--perf-scaled"));
    CHECK(find_status(statuses, "perf.multiplexed") == nullptr);  // the reduced group fits

    auto family = tier->family();
    const auto* cache = find_metric(family, "cache-miss");
    CHECK_FALSE(cache->available);
    CHECK(cache->is_default);  // shows as — rather than vanishing
    CHECK(contains(cache->reason, "LLC pair"));

    TenUnits body{&fake};
    PassResult r = tier->count(batched(body), PassPlan{100, 10});
    CHECK(std::isnan(find_cell(r, "cache-miss")->value));
    CHECK(find_cell(r, "instr")->value == doctest::Approx(10.0));
    CHECK_FALSE(find_cell(r, "instr")->estimated);
    CHECK(tier->meta().at("llcDropped").as_bool());
    CHECK(any_line(tier->header_notes(), "LLC pair (cache-references, cache-misses) dropped"));
}

TEST_CASE("seam tier: --perf-scaled keeps the full group and labels its estimates") {
    FakePerfKernel fake;
    fake.ratio = [](std::size_t members) { return members >= 7 ? 0.5 : 1.0; };
    TierRequest o = perf_options();
    o.perf.scaled = true;
    auto tier = tier_for_test();
    auto statuses = tier->open(o);
    REQUIRE(statuses.front().usable());
    CHECK(find_status(statuses, "perf.llc-pair") == nullptr);
    REQUIRE(find_status(statuses, "perf.scaled") != nullptr);
    REQUIRE(find_status(statuses, "perf.multiplexed") != nullptr);
    CHECK(contains(find_status(statuses, "perf.multiplexed")->reason, "0.500"));
    CHECK(find_metric(tier->family(), "cache-miss")->available);

    fake.window_ns = 1'000'000;  // enough PMU time per pass for an estimate
    TenUnits body{&fake};
    PassResult r = tier->count(batched(body), PassPlan{100, 10});
    for (const auto& c : r.cells) {
        CAPTURE(c.name);
        CHECK(c.estimated);
    }
    CHECK(find_cell(r, "instr")->value == doctest::Approx(10.0).epsilon(0.01));
    CHECK(find_cell(r, "cache-miss")->value == doctest::Approx(100.0));
    CHECK(any_line(tier->header_notes(), "--perf-scaled"));
    CHECK(tier->meta().at("scaled").as_bool());
}

TEST_CASE("seam tier: a pass rotated by contention is labelled even without --perf-scaled") {
    FakePerfKernel fake;
    auto tier = tier_for_test();
    REQUIRE(tier->open(perf_options()).front().state == Status::State::available);
    fake.ratio = [](std::size_t) { return 0.8; };
    fake.window_ns = 1'000'000;
    TenUnits body{&fake};
    PassResult r = tier->count(batched(body), PassPlan{100, 10});
    CHECK(find_cell(r, "instr")->estimated);
    CHECK(find_cell(r, "ipc")->estimated);
    CHECK(find_cell(r, "instr")->value == doctest::Approx(10.0).epsilon(0.01));

    // Under 1 ms of PMU time in a rotated pass: — (nan), not an estimate.
    fake.window_ns = 2000;
    r = tier->count(batched(body), PassPlan{100, 10});
    for (const auto& c : r.cells) {
        CAPTURE(c.name);
        CHECK(std::isnan(c.value));
        CHECK_FALSE(c.estimated);
    }
}

TEST_CASE("seam tier: a group that never gets PMU time makes the tier unavailable") {
    FakePerfKernel fake;
    fake.ratio = [](std::size_t) { return 0.0; };
    auto tier = tier_for_test();
    auto statuses = tier->open(perf_options());
    CHECK(statuses.front().state == Status::State::unavailable);
    CHECK(contains(statuses.front().reason, "never scheduled the group"));
    CHECK(contains(statuses.front().remedy, "nmi_watchdog"));
    // It tried the reduced group (without the LLC pair) before giving up.
    CHECK(fake.opened.size() == 7 + 5);
    CHECK(fake.live_fds() == 0);
}

TEST_CASE("seam tier: a short read in a pass gives nan, never 0") {
    FakePerfKernel fake;
    auto tier = tier_for_test();
    REQUIRE(tier->open(perf_options()).front().usable());
    fake.short_reads_after = fake.read_calls + 3;  // baseline + two brackets read fine
    TenUnits body{&fake};
    PassResult r = tier->count(batched(body), PassPlan{100, 10});
    REQUIRE_FALSE(r.cells.empty());
    for (const auto& c : r.cells) {
        CAPTURE(c.name);
        CHECK(std::isnan(c.value));
    }
}

TEST_CASE("seam tier: EINTR during a pass is retried and the values stay exact") {
    FakePerfKernel fake;
    auto tier = tier_for_test();
    REQUIRE(tier->open(perf_options()).front().usable());
    fake.eintr_ioctls = 3;
    fake.eintr_reads = 2;
    TenUnits body{&fake};
    PassResult r = tier->count(batched(body), PassPlan{100, 10});
    CHECK(fake.eintr_ioctls == 0);
    CHECK(fake.eintr_reads == 0);
    CHECK(find_cell(r, "instr")->value == doctest::Approx(10.0));
}

namespace {

// A per-call case whose timed() does 10 units and whose after() does 1000 (never counted).
struct CountingCall final : glint::detail::PerCall {
    FakePerfKernel* fake;
    int timeds = 0;
    int afters = 0;
    bool fail_after = false;
    explicit CountingCall(FakePerfKernel* f) : fake(f) {}
    void timed() override {
        ++timeds;
        fake->work(10);
    }
    glint::Outcome after() override {
        ++afters;
        REQUIRE(timeds == afters);  // after() always has the result of its own timed() call
        fake->work(1000);
        return fail_after ? glint::fail("mismatch") : glint::ok();
    }
};

}  // namespace

TEST_CASE("seam tier: per-call workloads bracket each call, after() outside the window") {
    FakePerfKernel fake;
    auto tier = tier_for_test();
    REQUIRE(tier->open(perf_options()).front().usable());
    CountingCall call(&fake);
    Workload w;
    w.per_call = &call;
    const int enables = fake.enable_calls;
    PassResult r = tier->count(w, PassPlan{20, 1});
    CHECK(fake.enable_calls - enables == 20 + 31);  // one per call, plus the empty brackets
    CHECK(call.afters == 20);
    CHECK(find_cell(r, "instr")->value == doctest::Approx(10.0));

    call.fail_after = true;
    CHECK_THROWS_AS(tier->count(w, PassPlan{5, 1}), CaseFailure);
}

TEST_CASE("seam tier: ENABLE failing mid-run still runs each call before its after(), nan cells") {
    FakePerfKernel fake;
    auto tier = tier_for_test();
    REQUIRE(tier->open(perf_options()).front().usable());
    fake.enable_errno = EIO;
    CountingCall call(&fake);
    Workload w;
    w.per_call = &call;
    PassResult r = tier->count(w, PassPlan{6, 1});
    CHECK(call.afters == 6);
    CHECK(call.timeds == 6);
    const auto* instr = find_cell(r, "instr");
    REQUIRE(instr);
    CHECK(std::isnan(instr->value));
}

TEST_CASE("seam tier: a throwing body leaves the group disabled") {
    FakePerfKernel fake;
    auto tier = tier_for_test();
    REQUIRE(tier->open(perf_options()).front().usable());
    auto thrower = [] { throw std::runtime_error("boom"); };
    using F = decltype(thrower);
    Workload w;
    w.batch = {&glint::detail::run_batch<F>, &thrower};
    CHECK_THROWS_AS(tier->count(w, PassPlan{10, 10}), std::runtime_error);
    CHECK_FALSE(fake.any_enabled());
    TenUnits body{&fake};
    PassResult r = tier->count(batched(body), PassPlan{10, 10});
    CHECK(find_cell(r, "instr")->value == doctest::Approx(10.0));
}

TEST_CASE("seam tier: --perf-inherit sets inherit and discloses what it covers") {
    FakePerfKernel fake;
    TierRequest o = perf_options();
    o.perf.inherit = true;
    auto tier = tier_for_test();
    REQUIRE(tier->open(o).front().usable());
    CHECK(int(fake.opened.front().inherit) == 1);
    CHECK(any_line(tier->header_notes(),
                   "and the threads that existed before the open (a group on each, read "
                   "around each pass)"));
    CHECK(tier->meta().at("inherit").as_bool());
}

TEST_CASE(
    "seam tier: --perf-read=rdpmc without a granted user read is disclosed, syscall serves it") {
    FakePerfKernel fake;
    TierRequest o = perf_options();
    o.perf.read = PerfRead::rdpmc;
    auto tier = tier_for_test();
    auto statuses = tier->open(o);
    const Status* path = find_status(statuses, "perf.read-path");
    REQUIRE(path != nullptr);
    // The fake's pages grant nothing (x86-64: cap_user_rdpmc 0 → unavailable); builds without a
    // user-space path say not_built. Either way the syscall path counts.
    CHECK_FALSE(path->usable());
    CHECK(path->reason.find("counting with the syscall path") != std::string::npos);
    CHECK(tier->meta().at("readPath").as_string() == "syscall");
}

TEST_CASE("seam tier: wanted by --perf, --perf-scaled, --perf-read or a perf metric selector") {
    auto tier = tier_for_test();
    auto request = [](std::vector<const char*> args) {
        return tier_request(parse_options(std::span<const char* const>(args.data(), args.size())));
    };
    CHECK_FALSE(tier->wanted(request({})));
    CHECK_FALSE(tier->wanted(request({"--metrics=ipc"})));  // naming a column: TierSet's check
    CHECK(tier->wanted(request({"--perf"})));
    CHECK(tier->wanted(request({"--perf-scaled"})));
    CHECK(tier->wanted(request({"--perf-read=syscall"})));

    FakePerfKernel fake;
    for (const char* metrics : {"--metrics=syscr", "--metrics=ipc"}) {
        std::vector<std::unique_ptr<Tier>> all;
        all.push_back(tier_for_test());
        TierSet set;
        set.open(request({metrics}), std::move(all));
        CHECK(set.empty() == (std::string_view(metrics) == "--metrics=syscr"));
    }
}
