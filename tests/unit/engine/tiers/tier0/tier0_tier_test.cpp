// The tier-0 tier over a scripted process: a fake kernel that accounts each snapshot's own
// reads after returning it (as /proc/self/io does) and perturbs a page fault per snapshot.
#include <doctest/doctest.h>

#include <cerrno>
#include <cmath>
#include <string>

#include "engine/tiers/tier0/tier0_tier.hpp"
#include "engine/tiers/tier_set.hpp"
#include "support/workloads.hpp"

using namespace glint;
using namespace glint::engine;
using glint::os::ProcessCounter;
using glint::os::ProcessSnapshot;
using glint::test::batched;
using glint::test::cell;
using glint::test::descriptor;

namespace {

struct FakeProcess {
    ProcessSnapshot state;
    bool io_readable = true;
    int snapshots = 0;

    FakeProcess() {
        state.present.fill(true);
        state.rusage_ok = state.io_ok = true;
    }
    std::uint64_t& operator[](ProcessCounter c) {
        return state.values[static_cast<std::size_t>(c)];
    }
};
FakeProcess* g_process = nullptr;

ProcessSnapshot scripted_snapshot() {
    FakeProcess& p = *g_process;
    ++p.snapshots;
    ProcessSnapshot s = p.state;
    if (!p.io_readable) {
        for (auto c :
             {ProcessCounter::syscr, ProcessCounter::syscw, ProcessCounter::rchar,
              ProcessCounter::wchar, ProcessCounter::read_bytes, ProcessCounter::write_bytes})
            s.present[static_cast<std::size_t>(c)] = false;
        s.io_ok = false;
        s.io_error = EACCES;
    } else {
        s.own_reads = 2;
        s.own_bytes = 120;
        p[ProcessCounter::syscr] += 2;  // accounted once the snapshot's reads return
        p[ProcessCounter::rchar] += 120;
    }
    p[ProcessCounter::minflt] += 1;  // the apparatus faults once per snapshot
    return s;
}

struct Rig {
    FakeProcess process;
    std::unique_ptr<CountingTier> tier = tier0::make_tier0(&scripted_snapshot);
    Rig() { g_process = &process; }
    ~Rig() { g_process = nullptr; }
};

// Per iteration: one read(2) of 100 bytes, 10 of which came from the block device.
void io_body(void*, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) {
        (*g_process)[ProcessCounter::syscr] += 1;
        (*g_process)[ProcessCounter::rchar] += 100;
        (*g_process)[ProcessCounter::read_bytes] += 10;
        (*g_process)[ProcessCounter::nvcsw] += 1;
    }
}

TierRequest metrics(std::vector<std::string> selectors) {
    TierRequest r;
    r.metrics = std::move(selectors);
    return r;
}

}  // namespace

TEST_CASE("tier0 tier: eleven opt-in quantitative columns, opened only when one is selected") {
    Rig rig;
    const auto family = rig.tier->family();
    const std::vector<std::string> names{"syscr",    "syscw",    "minflt",   "majflt",
                                         "vol-cs",   "invol-cs", "rchar",    "wchar",
                                         "rd-bytes", "wr-bytes", "cache-hit"};
    REQUIRE(family.size() == names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
        CHECK(family[i].name == names[i]);
        CHECK(family[i].source == "tier0");
        CHECK(family[i].cls == catalog::MetricClass::quantitative);
        CHECK_FALSE(family[i].is_default);
        CHECK_FALSE(family[i].available);  // not opened yet
        CHECK(family[i].reason.find("opt-in") != std::string::npos);
    }
    CHECK(descriptor(family, "cache-hit").format == catalog::Format::percent);
    CHECK(descriptor(family, "rchar").format == catalog::Format::count);

    CHECK_FALSE(rig.tier->wanted(metrics({"syscr"})));  // no flag of its own
    CHECK(rig.process.snapshots == 0);                  // nothing read before open
    // Naming one of its columns opens it (TierSet's check over the catalog).
    auto opens = [&](std::vector<std::string> selectors) {
        std::vector<std::unique_ptr<Tier>> all;
        all.push_back(tier0::make_tier0(&scripted_snapshot));
        TierSet set;
        set.open(metrics(std::move(selectors)), std::move(all));
        return !set.empty();
    };
    CHECK(opens({"syscr"}));
    CHECK(opens({"ipc", "cache-hit"}));
    CHECK(opens({"all"}));
    CHECK(opens({"rd-*"}));
    CHECK_FALSE(opens({}));
    CHECK_FALSE(opens({"ipc", "sc:write"}));
}

TEST_CASE("tier0 tier: the snapshot cost is measured at open (9 empty brackets) and subtracted") {
    Rig rig;
    const auto statuses = rig.tier->open(metrics({"syscr"}));
    REQUIRE(statuses.front().usable());
    CHECK(statuses.front().state == Status::State::available);
    CHECK(rig.process.snapshots == 18);
    for (const auto& d : rig.tier->family()) CHECK(d.available);
    const Json meta = rig.tier->meta();
    CHECK(meta.at("bracketCost").at("perBracket").at("minflt").as_number() == 1);
    CHECK(meta.at("bracketCost").at("perBracket").at("syscr").as_number() == 0);  // removed exactly

    const PassResult r = rig.tier->count(batched(&io_body), PassPlan{1000, 10});
    CHECK(cell(r, "syscr") == 1);
    CHECK(cell(r, "rchar") == 100);
    CHECK(cell(r, "rd-bytes") == 10);
    CHECK(cell(r, "vol-cs") == 1);
    CHECK(cell(r, "minflt") == 0);  // only the apparatus faulted: subtracted
    CHECK(cell(r, "wchar") == 0);
    CHECK(cell(r, "cache-hit") == doctest::Approx(90.0));
}

TEST_CASE("tier0 tier: per-call cases bracket each call and run after() outside the snapshots") {
    Rig rig;
    rig.tier->open(metrics({"syscr"}));
    struct Call final : glint::detail::PerCall {
        int afters = 0;
        void timed() override { io_body(nullptr, 1); }
        Outcome after() override {
            ++afters;
            (*g_process)[ProcessCounter::syscw] += 7;  // untimed work: must not be counted
            return glint::ok();
        }
    } call;
    Workload w;
    w.per_call = &call;
    const PassResult r = rig.tier->count(w, PassPlan{50, 1});
    CHECK(call.afters == 50);
    CHECK(cell(r, "syscr") == 1);
    CHECK(cell(r, "syscw") == 0);
    CHECK(cell(r, "minflt") == 0);
}

TEST_CASE(
    "tier0 tier: a field the kernel lacks renders nan with the reason, the rest still count") {
    Rig rig;
    rig.process.io_readable = false;
    const auto statuses = rig.tier->open(metrics({"syscr"}));
    REQUIRE(statuses.front().usable());
    CHECK(statuses.front().state == Status::State::degraded);
    const auto family = rig.tier->family();
    CHECK_FALSE(descriptor(family, "syscr").available);
    CHECK(descriptor(family, "syscr").reason.find("/proc/self/io is unreadable: EACCES") !=
          std::string::npos);
    CHECK_FALSE(descriptor(family, "cache-hit").available);
    CHECK(descriptor(family, "minflt").available);

    const PassResult r = rig.tier->count(batched(&io_body), PassPlan{100, 10});
    CHECK(std::isnan(cell(r, "syscr")));
    CHECK(std::isnan(cell(r, "rchar")));
    CHECK(std::isnan(cell(r, "cache-hit")));
    CHECK(cell(r, "vol-cs") == 1);
}

TEST_CASE("tier0 tier: without any source it is unavailable, with both reasons") {
    Rig rig;
    rig.process.io_readable = false;
    rig.process.state.rusage_ok = false;
    rig.process.state.present.fill(false);
    const auto statuses = rig.tier->open(metrics({"syscr"}));
    REQUIRE_FALSE(statuses.empty());
    CHECK_FALSE(statuses.front().usable());
    CHECK(statuses.front().reason.find("/proc/self/io is unreadable") != std::string::npos);
    CHECK(statuses.front().reason.find("getrusage(RUSAGE_SELF) failed") != std::string::npos);
}

TEST_CASE(
    "tier0 tier: a batch with inputs is bracketed per window, its setup outside the snapshots") {
    Rig rig;
    rig.tier->open(metrics({"syscr", "syscw"}));
    struct Setup {
        int windows = 0;
        static void prepare(void* ctx, std::uint64_t n) {
            ++static_cast<Setup*>(ctx)->windows;
            (*g_process)[ProcessCounter::syscw] += 7 * n;  // setup's work: must not be counted
        }
    } setup;
    auto run = [](void*, std::uint64_t n) { io_body(nullptr, n); };
    Workload w;
    w.batch = {+run, &setup, &Setup::prepare, 30};
    const PassResult r = rig.tier->count(w, PassPlan{100, 30});
    CHECK(setup.windows == 4);  // 30 + 30 + 30 + 10
    CHECK(cell(r, "syscr") == 1);
    CHECK(cell(r, "syscw") == 0);
    CHECK(cell(r, "minflt") == 0);  // each window's snapshot pair subtracted as one bracket
}
