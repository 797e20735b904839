// raw: selectors end to end up to the encoding (no OS, no library involved).
#include <doctest/doctest.h>

#include <string>

#include "engine/counting/event_naming.hpp"
#include "engine/tiers/events/event_tier.hpp"
#include "engine/tiers/events/selectors.hpp"

using namespace glint;
using namespace glint::engine;
using catalog::EventSelector;

namespace {

TierRequest metrics(std::vector<std::string> selectors) {
    TierRequest r;
    r.metrics = std::move(selectors);
    return r;
}

}  // namespace

TEST_CASE("event selectors: each family takes its own named selectors, once, in order") {
    const TierRequest o = metrics(
        {"ipc", "raw:r00c0", "pfm:CYCLES", "raw:*", "raw:r01c2", "raw:r00c0", "raw:zz", "all"});
    const auto raw = events::family_selectors(o.metrics, EventSelector::Family::raw);
    REQUIRE(raw.size() == 2);
    CHECK(raw[0].text == "raw:r00c0");
    CHECK(raw[1].text == "raw:r01c2");
    const auto pfm = events::family_selectors(o.metrics, EventSelector::Family::pfm);
    REQUIRE(pfm.size() == 1);
    CHECK(pfm[0].event == "CYCLES");

    CHECK(make_raw_event_tier()->wanted(o));
    CHECK(make_pfm_event_tier()->wanted(o));
    CHECK_FALSE(make_pfm_event_tier()->wanted(metrics({"raw:r00c0", "pfm:*", "all"})));
    CHECK(make_raw_event_tier()->source() == "raw");
    CHECK(make_pfm_event_tier()->source() == "pfm");
    CHECK(make_raw_event_tier()->family().empty());  // nothing named, nothing to list
}

TEST_CASE("event selectors: raw:r<hex> resolves to PERF_TYPE_RAW with its privilege") {
    auto parsed = catalog::parse_event_selector("raw:r5300c0:u");
    const auto r = glint::engine::counting::resolve_event(std::get<EventSelector>(parsed));
    REQUIRE(r.ok);
    CHECK(r.spec.type == glint::os::kRawEventType);
    CHECK(r.spec.config == 0x5300c0);
    CHECK(r.spec.exclude_kernel);
    CHECK_FALSE(r.spec.exclude_user);
    CHECK(r.spec.name == "raw:r5300c0:u");
    CHECK(r.encoding == "PERF_TYPE_RAW config 0x5300c0 (user only)");
}

TEST_CASE("event selectors: a malformed raw selector stops the run before measuring, named") {
    const auto bad = events::check_event_selectors(metrics({"ipc", "raw:r00c0", "raw:zz"}).metrics);
    REQUIRE(bad);
    CHECK(*bad ==
          "--metrics selector 'raw:zz': a raw config starts with 'r'; expected "
          "raw:r<hex>[:u|:k], e.g. raw:r00c0");
    CHECK_FALSE(
        events::check_event_selectors(metrics({"raw:r00c0", "raw:*", "ipc", "all"}).metrics));
    const auto pfm = events::check_event_selectors(metrics({"pfm:"}).metrics);
    REQUIRE(pfm);
    CHECK(pfm->find("'pfm:'") != std::string::npos);
}
