// The perf tier end to end with the rdpmc read path on the emulated PMU: the real group opener,
// PerfGroup (fake fds and emulated mmap pages behind the sys() seam), selection, calibration,
// JIT stubs and passes. Per-iteration counts are asserted exactly.
#include <cerrno>
#include <stdexcept>

#include "support/rdpmc_rig.hpp"

using namespace glint;
using namespace glint::engine;
using namespace glint::test;

TEST_CASE(
    "rdpmc tier: auto picks rdpmc and counts the default group exactly, batched and unbatched") {
    TierRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    auto tier = rig_tier();
    const auto statuses = tier->open(perf_options());
    REQUIRE(statuses.front().usable());
    CHECK(find_status(statuses, "perf.read-path") == nullptr);  // the default state
    CHECK(tier->meta().at("readPath").as_string() == "rdpmc");

    Work work{&rig.kernel};
    for (std::uint64_t batch : {std::uint64_t{100}, std::uint64_t{1}}) {
        CAPTURE(batch);
        const PassResult r = tier->count(batched(work), PassPlan{batch == 1 ? 150u : 1000u, batch});
        CHECK(cell(r, "instr") == 10.0);
        CHECK(cell(r, "cycles") == 20.0);
        CHECK(cell(r, "ipc") == 0.5);
        CHECK(cell(r, "page-faults") == 1.0);
        CHECK(cell(r, "branch-miss") == doctest::Approx(100.0 / 3));
        CHECK(cell(r, "cache-miss") == 25.0);
        CHECK_FALSE(find_cell(r, "instr")->estimated);
        CHECK(find_cell(r, "instr@rdpmc") == nullptr);  // no compare columns outside compare
    }
    const Json path = tier->meta().at("readPaths").at("rdpmc");
    CHECK(path.at("slowReads").as_number() == 0);
    CHECK(path.at("seqlockRetries").as_number() == 0);
    CHECK(rig.pmu.bad_reads() == 0);
    CHECK_FALSE(rig.kernel.any_enabled());  // end_pass stopped the group
}

TEST_CASE("rdpmc tier: a per-call case's after() is never counted") {
    TierRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    auto tier = rig_tier();
    REQUIRE(tier->open(perf_options()).front().usable());
    FakePerfKernel* kernel = &rig.kernel;
    glint::detail::PerCallImpl call([kernel] { kernel->work(1); },
                                    [kernel] { kernel->work(1000); });  // runs while counting
    Workload w;
    w.per_call = &call;
    const PassResult r = tier->count(w, PassPlan{60, 1});
    CHECK(cell(r, "instr") == 10.0);
    CHECK(cell(r, "page-faults") == 1.0);
}

TEST_CASE("rdpmc tier: header and meta show the path, the sysfs setting and the bracket cost") {
    TierRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    auto tier = rig_tier();
    REQUIRE(tier->open(perf_options()).front().usable());
    const auto lines = tier->header_notes();
    for (const auto& l : lines) MESSAGE(l);  // what a run shows with rdpmc granted (emulated)
    CHECK(any_line(lines,
                   "perf: read path rdpmc (a JIT stub reads cycles, instructions, branches, "
                   "branch-misses, cache-references, cache-misses with rdpmc from their "
                   "perf mmap pages: no system call inside the counting window; "
                   "page-faults (software, index 0) read with read(2)"));
    CHECK(any_line(lines, "perf: rdpmc sysfs: "));
    CHECK(any_line(lines, "bracket self-cost cycles 33, "));
    CHECK(any_line(lines, "ns, its counting window "));

    const Json meta = tier->meta();
    MESSAGE(meta.dump());
    const Json& user = meta.at("userRead");
    CHECK(user.at("path").as_string() == "rdpmc");
    CHECK(user.at("counts").as_bool());
    CHECK(user.at("rdpmcSysfs").is_string());
    CHECK(user.at("rdpmcFiles").is_array());
    const Json& cost = meta.at("bracketCost").at("rdpmc");
    CHECK(cost.at("cycles").as_number() == kRdpmcBracketCycles);
    CHECK(cost.at("perBracket").at("instructions").as_number() == kRdpmcBracketInstructions);
    CHECK(cost.at("perBracket").at("page-faults").as_number() == 0);
    CHECK(cost.at("windowNs").as_number() > 0);  // a TSC pair around the stub call
    CHECK(cost.at("wallNs").as_number() >= cost.at("windowNs").as_number());
    CHECK_FALSE(meta.at("bracketCost").contains("syscall"));
    const Json& path = meta.at("readPaths").at("rdpmc");
    REQUIRE(path.at("counters").size() == 6);
    const Json& first = path.at("counters").as_array()[0];
    CHECK(first.at("event").as_string() == "cycles");
    CHECK(first.at("index").as_number() == 1);  // counter 0
    CHECK(first.at("pmcWidth").as_number() == 48);
    CHECK(path.at("readWithRead2").as_array() == Json::Array{Json("page-faults")});
    CHECK(path.at("times").as_string() == "read(2) of the group around each stub");
    CHECK(path.at("stubBytes").as_number() > 0);
}

TEST_CASE("rdpmc tier: each --perf-read value on a group whose pages grant user rdpmc") {
    TierRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    SUBCASE("rdpmc: rdpmc, nothing disclosed") {
        auto tier = rig_tier();
        const auto statuses = tier->open(perf_options(PerfRead::rdpmc));
        CHECK(find_status(statuses, "perf.read-path") == nullptr);
        CHECK(tier->meta().at("readPath").as_string() == "rdpmc");
    }
    SUBCASE("syscall: syscall, the rdpmc facts still shown") {
        auto tier = rig_tier();
        const auto statuses = tier->open(perf_options(PerfRead::syscall));
        CHECK(find_status(statuses, "perf.read-path") == nullptr);
        const Json meta = tier->meta();
        CHECK(meta.at("readPath").as_string() == "syscall");
        CHECK_FALSE(meta.at("userRead").at("counts").as_bool());
        CHECK_FALSE(meta.at("userRead").contains("reason"));
        CHECK(any_line(tier->header_notes(), "perf: rdpmc sysfs: "));
        Work work{&rig.kernel};
        const PassResult r = tier->count(batched(work), PassPlan{40, 1});
        CHECK(cell(r, "instr") == 10.0);
        CHECK(meta.at("bracketCost").at("syscall").at("cycles").as_number() ==
              kSyscallBracketCycles);
    }
}

TEST_CASE("rdpmc tier: compare counts every case with both paths, side by side") {
    TierRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    auto tier = rig_tier();
    const auto statuses = tier->open(perf_options(PerfRead::compare));
    const Status* disclosed = find_status(statuses, "perf.read-path");
    REQUIRE(disclosed != nullptr);
    CHECK(disclosed->state == Status::State::available);
    CHECK(contains(disclosed->reason, "counted twice, by rdpmc (the perf columns) and by syscall"));

    std::vector<std::string> defaults;
    for (const auto& d : tier->family())
        if (d.is_default && d.name.find('@') != std::string::npos) defaults.push_back(d.name);
    CHECK(defaults == std::vector<std::string>{"instr@rdpmc", "instr@syscall",
                                               "bracket-cycles@rdpmc", "bracket-cycles@syscall"});

    Work work{&rig.kernel};
    for (std::uint64_t batch : {std::uint64_t{50}, std::uint64_t{1}}) {
        CAPTURE(batch);
        const PassResult r = tier->count(batched(work), PassPlan{100, batch});
        CHECK(cell(r, "instr") == 10.0);
        CHECK(cell(r, "instr@rdpmc") == 10.0);
        CHECK(cell(r, "instr@syscall") == 10.0);
        CHECK(cell(r, "cycles@rdpmc") == 20.0);
        CHECK(cell(r, "cycles@syscall") == 20.0);
        CHECK(cell(r, "bracket-cycles@rdpmc") == kRdpmcBracketCycles);
        CHECK(cell(r, "bracket-cycles@syscall") == kSyscallBracketCycles);
        CHECK(cell(r, "bracket-instr@rdpmc") == kRdpmcBracketInstructions);
        CHECK(cell(r, "bracket-instr@syscall") == kSyscallBracketInstructions);
        CHECK(find_cell(r, "task-clock@syscall") == nullptr);  // software-group columns
    }
    const Json meta = tier->meta();
    CHECK(meta.at("compare").as_bool());
    CHECK(meta.at("bracketCost").at("syscall").at("cycles").as_number() == kSyscallBracketCycles);
    CHECK(meta.at("bracketCost").at("rdpmc").at("cycles").as_number() == kRdpmcBracketCycles);
    CHECK(any_line(tier->header_notes(), "perf: compared with syscall (ioctl ENABLE/DISABLE"));
}

TEST_CASE("rdpmc tier: pages without cap_user_rdpmc fall back to syscall, saying why") {
    TierRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    rig.kernel.grant_rdpmc = false;
    const std::string members =
        "cycles, instructions, branches, branch-misses, cache-references, cache-misses";
    SUBCASE("rdpmc asked") {
        auto tier = rig_tier();
        const auto statuses = tier->open(perf_options(PerfRead::rdpmc));
        const Status* s = find_status(statuses, "perf.read-path");
        REQUIRE(s != nullptr);
        CHECK(s->state == Status::State::unavailable);
        CHECK(contains(s->reason,
                       "--perf-read=rdpmc asked for the user-space path, which is not "
                       "available: the kernel did not grant user rdpmc "
                       "(cap_user_rdpmc 0) on the page of " +
                           members));
        CHECK(contains(s->reason, "counting with the syscall path"));
        const Json meta = tier->meta();
        CHECK(meta.at("readPath").as_string() == "syscall");
        CHECK(meta.at("userRead").at("state").as_string() == "unavailable");
        Work work{&rig.kernel};
        CHECK(cell(tier->count(batched(work), PassPlan{30, 1}), "instr") == 10.0);
    }
    SUBCASE("auto") {
        auto tier = rig_tier();
        const auto statuses = tier->open(perf_options());
        const Status* s = find_status(statuses, "perf.read-path");
        REQUIRE(s != nullptr);
        CHECK(contains(s->reason, "rdpmc path not used: the kernel did not grant user rdpmc"));
    }
    SUBCASE("compare: the rdpmc side renders —, the syscall side counts") {
        auto tier = rig_tier();
        const auto statuses = tier->open(perf_options(PerfRead::compare));
        const Status* s = find_status(statuses, "perf.read-path");
        REQUIRE(s != nullptr);
        CHECK(s->state == Status::State::unavailable);
        CHECK(contains(s->reason, "the @rdpmc columns show —"));
        Work work{&rig.kernel};
        const PassResult r = tier->count(batched(work), PassPlan{30, 1});
        CHECK(std::isnan(cell(r, "instr@rdpmc")));
        CHECK(std::isnan(cell(r, "bracket-cycles@rdpmc")));
        CHECK(cell(r, "instr@syscall") == 10.0);
        CHECK(cell(r, "bracket-cycles@syscall") == kSyscallBracketCycles);
        for (const auto& d : tier->family())
            if (d.name == "instr@rdpmc") CHECK(contains(d.reason, "cap_user_rdpmc 0"));
    }
}

TEST_CASE("rdpmc tier: an event the PMU did not schedule (index 0) refuses rdpmc") {
    TierRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    rig.kernel.never_scheduled = os::Event::branch_misses;
    auto tier = rig_tier();
    const auto statuses = tier->open(perf_options(PerfRead::rdpmc));
    const Status* s = find_status(statuses, "perf.read-path");
    REQUIRE(s != nullptr);
    CHECK(contains(s->reason,
                   "the page of branch-misses showed index 0 while the group was enabled"));
    CHECK(contains(s->remedy, "free PMU counters"));
}

TEST_CASE("rdpmc tier: no hardware PMU: the software group, syscall, and why") {
    TierRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    rig.kernel.hardware_errno = ENOENT;  // no PMU
    auto tier = rig_tier();
    const auto statuses = tier->open(perf_options(PerfRead::rdpmc));
    REQUIRE(statuses.front().usable());
    const Status* s = find_status(statuses, "perf.read-path");
    REQUIRE(s != nullptr);
    CHECK(contains(s->reason, "the group has no hardware counter"));
    CHECK(tier->meta().at("readPath").as_string() == "syscall");
}

TEST_CASE("rdpmc tier: a multiplexed pass is scaled and marked estimated") {
    TierRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    auto tier = rig_tier();
    REQUIRE(tier->open(perf_options()).front().usable());
    rig.kernel.ratio = [](std::size_t) { return 0.5; };  // running is half of enabled from now on
    rig.kernel.ns_per_iteration = 10'000;                // enough PMU time (>= 1 ms) to scale
    Work work{&rig.kernel};
    const PassResult r = tier->count(batched(work), PassPlan{400, 100});
    // The emulated counters ran throughout, so scaling by enabled/running doubles them.
    CHECK(cell(r, "instr") == 20.0);
    CHECK(find_cell(r, "instr")->estimated);
}

TEST_CASE("rdpmc tier: an exception from the body stops the group and propagates") {
    TierRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    auto tier = rig_tier();
    REQUIRE(tier->open(perf_options()).front().usable());
    auto thrower = [] { throw std::runtime_error("boom"); };
    using F = decltype(thrower);
    Workload w;
    w.batch = {&glint::detail::run_batch<F>, &thrower};
    CHECK_THROWS_WITH_AS(tier->count(w, PassPlan{10, 10}), "boom", std::runtime_error);
    CHECK_FALSE(rig.kernel.any_enabled());
    Work work{&rig.kernel};
    CHECK(cell(tier->count(batched(work), PassPlan{20, 10}), "instr") == 10.0);
}

TEST_CASE("rdpmc tier: failing read(2) renders the pass —, and after() still gets its result") {
    TierRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    auto tier = rig_tier();
    REQUIRE(tier->open(perf_options()).front().usable());
    rig.kernel.read_errno = EIO;  // page-faults and enabled/running can no longer be read
    FakePerfKernel* kernel = &rig.kernel;
    int calls = 0;
    std::vector<int> results;
    glint::detail::PerCallImpl call(
        [kernel, &calls] {
            kernel->work(1);
            return ++calls;
        },
        [&results](int result) { results.push_back(result); });
    Workload w;
    w.per_call = &call;
    const PassResult r = tier->count(w, PassPlan{5, 1});
    CHECK(std::isnan(cell(r, "instr")));
    CHECK(std::isnan(cell(r, "page-faults")));
    CHECK(results == std::vector<int>{1, 2, 3, 4, 5});  // each after() saw its own call
}
