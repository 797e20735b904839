// The raw: and pfm: tiers: their own group (faked behind the sys() seam where this VM has no
// PMU), a refused member costing only its column, libpfm missing, and a libpfm-named software
// event counted for real.
#include <doctest/doctest.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "engine/counting/event_naming.hpp"
#include "engine/tiers/events/event_tier.hpp"
#include "engine/tiers/events/selectors.hpp"
#include "os/pfm.hpp"
#include "support/fake_perf_kernel.hpp"
#include "support/skip.hpp"
#include "support/test_bodies.hpp"
#include "support/workloads.hpp"

using namespace glint;
using namespace glint::engine;
using glint::test::batched;
using glint::test::cell;
using glint::test::descriptor;

namespace {

TierRequest metrics(std::vector<std::string> selectors) {
    TierRequest r;
    r.metrics = std::move(selectors);
    return r;
}

// Points os::pfm at a library that does not exist for the scope.
struct MissingLibpfm {
    MissingLibpfm() { os::pfm_reload_for_tests("libpfm-glint-test-absent.so.4"); }
    ~MissingLibpfm() { os::pfm_reload_for_tests(); }
};

}  // namespace

TEST_CASE("raw tier: the selectors count in their own group, per iteration, cost subtracted") {
    glint::test::FakePerfKernel fake;
    auto tier = make_raw_event_tier();
    const TierRequest o = metrics({"ipc", "raw:r00c0", "raw:r01c2:u"});
    REQUIRE(tier->wanted(o));
    const auto statuses = tier->open(o);
    REQUIRE(statuses.front().usable());
    CHECK(statuses.front().state == Status::State::available);
    CHECK(statuses.front().reason.rfind(
              "own counting group: raw:r00c0 (PERF_TYPE_RAW config 0xc0), raw:r01c2:u "
              "(PERF_TYPE_RAW config 0x1c2 (user only)); counts the measuring thread only",
              0) == 0);
    REQUIRE(fake.opened.size() == 2);
    CHECK(fake.opened[0].type == PERF_TYPE_RAW);
    CHECK(fake.opened[0].config == 0xc0);
    CHECK(fake.opened[1].config == 0x1c2);
    CHECK(bool(fake.opened[1].exclude_kernel));
    CHECK_FALSE(bool(fake.opened[0].exclude_kernel));

    const auto family = tier->family();
    REQUIRE(family.size() == 2);
    CHECK(family[0].name == "raw:r00c0");
    CHECK(family[0].header == "raw:r00c0");
    CHECK(family[0].source == "raw");
    CHECK(family[0].cls == catalog::MetricClass::diagnostic);
    CHECK(family[0].available);

    auto body = [&] { fake.work(7); };
    const PassResult r = tier->count(batched(body), PassPlan{1000, 100});
    CHECK(cell(r, "raw:r00c0") == 7);
    CHECK(cell(r, "raw:r01c2:u") == 7);
    const Json meta = tier->meta();
    CHECK(meta.at("events").as_array()[0].at("encoding").as_string() ==
          "PERF_TYPE_RAW config 0xc0");
}

TEST_CASE("raw tier: a member the kernel refuses is dropped alone, its column says why") {
    glint::test::FakePerfKernel fake;
    fake.refuse_kernel_errno = EACCES;  // only the :u event is allowed
    auto tier = make_raw_event_tier();
    const auto statuses = tier->open(metrics({"raw:r00c0", "raw:r01c2:u"}));
    REQUIRE(statuses.front().usable());
    CHECK(statuses.front().state == Status::State::degraded);
    REQUIRE(statuses.size() == 2);
    CHECK(statuses[1].reason.find("raw:r00c0: the kernel refused it: EACCES") != std::string::npos);
    CHECK(statuses[1].remedy.find("count user space only (:u)") != std::string::npos);
    const auto family = tier->family();
    CHECK_FALSE(descriptor(family, "raw:r00c0").available);
    CHECK(descriptor(family, "raw:r01c2:u").available);

    auto body = [&] { fake.work(2); };
    const PassResult r = tier->count(batched(body), PassPlan{100, 10});
    CHECK(std::isnan(cell(r, "raw:r00c0")));
    CHECK(cell(r, "raw:r01c2:u") == 2);
    // The open-time bracket cost is the counting member's (the fake adds 100 per window), not
    // the slot its requested index would have had in the group.
    const Json meta = tier->meta();
    CHECK(meta.at("events").as_array()[0].at("bracketCost").is_null());
    CHECK(meta.at("events").as_array()[1].at("bracketCost").as_number() == 100);
    bool named = false;
    for (const auto& line : tier->header_notes())
        named = named || line.find("raw:r01c2:u 100") != std::string::npos;
    CHECK(named);
}

TEST_CASE("raw tier: on this PMU-less VM the kernel refuses raw events: — with the reason") {
    auto tier = make_raw_event_tier();
    const auto statuses = tier->open(metrics({"raw:r00c0"}));
    REQUIRE_FALSE(statuses.empty());
    if (statuses.front().usable())
        return glint::test::skip("this host has a PMU that accepts raw:r00c0: no refusal to check");
    CHECK(statuses.front().reason.rfind("raw:r00c0: the kernel refused it: ", 0) == 0);
    const auto family = tier->family();
    REQUIRE(family.size() == 1);
    CHECK_FALSE(family[0].available);
    CHECK(family[0].reason.find("the kernel refused it") != std::string::npos);
}

TEST_CASE("pfm tier: without libpfm the columns degrade with the loader's reason, no usage error") {
    MissingLibpfm missing;
    const TierRequest o = metrics({"pfm:INST_RETIRED:ANY_P", "pfm:CYCLES"});
    CHECK_FALSE(events::check_event_selectors(o.metrics));  // cannot be checked: not an exit 2
    auto tier = make_pfm_event_tier();
    const auto statuses = tier->open(o);
    REQUIRE(statuses.size() == 1);
    CHECK_FALSE(statuses.front().usable());
    CHECK(statuses.front().reason.find("pfm:INST_RETIRED:ANY_P, pfm:CYCLES: "
                                       "libpfm-glint-test-absent.so.4 cannot be loaded") !=
          std::string::npos);
    CHECK(statuses.front().reason.find("raw: selectors and the generic events still work") !=
          std::string::npos);
    CHECK(statuses.front().remedy == "apt-get install libpfm4");
    for (const auto& d : tier->family()) {
        CHECK_FALSE(d.available);
        CHECK(d.reason.find("cannot be loaded") != std::string::npos);
    }
    const auto lines = glint::engine::counting::event_naming_lines();
    REQUIRE(lines.size() == 2);
    CHECK(lines[1].find("eventNaming absent: libpfm-glint-test-absent.so.4 cannot be loaded") !=
          std::string::npos);
}

TEST_CASE("pfm selectors: an unknown name or unit mask is a usage error naming the selector") {
    ::setenv("LIBPFM_FORCE_PMU", "skl", 1);
    os::pfm_reload_for_tests();
    const auto unknown = events::check_event_selectors(metrics({"pfm:NO_SUCH_EVENT"}).metrics);
    REQUIRE(unknown);
    CHECK(*unknown ==
          "--metrics selector 'pfm:NO_SUCH_EVENT': libpfm4 knows no event "
          "'NO_SUCH_EVENT' on the PMUs it detected here");
    const auto umask = events::check_event_selectors(metrics({"pfm:INST_RETIRED:NOPE"}).metrics);
    REQUIRE(umask);
    CHECK(umask->find("'pfm:INST_RETIRED:NOPE': libpfm4 rejected 'INST_RETIRED:NOPE'") !=
          std::string::npos);
    CHECK_FALSE(events::check_event_selectors(metrics({"pfm:INST_RETIRED:ANY_P:u"}).metrics));

    auto parsed = catalog::parse_event_selector("pfm:MEM_LOAD_RETIRED:L1_HIT:k");
    const auto r = glint::engine::counting::resolve_event(std::get<catalog::EventSelector>(parsed));
    REQUIRE(r.ok);
    CHECK(r.spec.config == 0x1d1);
    CHECK(r.spec.exclude_user);
    CHECK(r.encoding == "skl::MEM_LOAD_RETIRED:L1_HIT = PERF_TYPE_RAW config 0x1d1 (kernel only)");
    ::unsetenv("LIBPFM_FORCE_PMU");
    os::pfm_reload_for_tests();
}

TEST_CASE("real pfm tier: a libpfm-named software event counts for real, in its own group") {
    os::pfm_reload_for_tests();
    REQUIRE(os::pfm_library().loaded);
    auto tier = make_pfm_event_tier();
    const auto statuses = tier->open(metrics({"pfm:PERF_COUNT_SW_PAGE_FAULTS", "pfm:TASK-CLOCK"}));
    REQUIRE_MESSAGE(statuses.front().usable(), statuses.front().reason);
    constexpr int kPages = 16;
    auto body = [] { glint::test::touch_fresh_pages(kPages); };
    const PassResult r = tier->count(batched(body), PassPlan{40, 8});
    CHECK(cell(r, "pfm:PERF_COUNT_SW_PAGE_FAULTS") >= kPages - 0.5);
    CHECK(cell(r, "pfm:PERF_COUNT_SW_PAGE_FAULTS") <= kPages + 1.0);
    CHECK(cell(r, "pfm:TASK-CLOCK") > 0);
    const Json meta = tier->meta();
    CHECK(meta.at("events").as_array()[0].at("encoding").as_string() ==
          "perf::PERF_COUNT_SW_PAGE_FAULTS = type 1 config 0x2");
}
