#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "catalog/event_selector.hpp"
#include "catalog/selection.hpp"

using namespace glint::catalog;

namespace {

EventSelector parsed(const std::string& text) {
    auto result = parse_event_selector(text);
    if (auto* e = std::get_if<SelectorError>(&result)) FAIL(e->message);
    return std::get<EventSelector>(result);
}

std::string error_of(const std::string& text) {
    auto result = parse_event_selector(text);
    if (auto* e = std::get_if<SelectorError>(&result)) return e->message;
    FAIL("'" << text << "' parsed, expected an error");
    return {};
}

}  // namespace

TEST_CASE("event selectors: raw:r<hex> is the config, the text is kept as the column name") {
    const EventSelector s = parsed("raw:r00c0");
    CHECK(s.family == EventSelector::Family::raw);
    CHECK(s.config == 0xc0);
    CHECK(s.text == "raw:r00c0");
    CHECK(s.privilege == Privilege::both);
    CHECK(family_source(s.family) == "raw");

    CHECK(parsed("raw:r5300C0").config == 0x5300c0);
    CHECK(parsed("raw:rffffffffffffffff").config == ~0ULL);
    CHECK(parsed("raw:r1a3:u").privilege == Privilege::user_only);
    CHECK(parsed("raw:r1a3:u").config == 0x1a3);
    CHECK(parsed("raw:r1a3:k").privilege == Privilege::kernel_only);
}

TEST_CASE("event selectors: a malformed raw selector is an error naming it and the form") {
    const std::string zz = error_of("raw:zz");
    CHECK(zz.find("'raw:zz'") != std::string::npos);
    CHECK(zz.find("raw:r<hex>") != std::string::npos);
    CHECK(error_of("raw:rzz").find("'z' is not a hex digit") != std::string::npos);
    CHECK(error_of("raw:r").find("no hex digits") != std::string::npos);
    CHECK(error_of("raw:").find("starts with 'r'") != std::string::npos);
    CHECK(error_of("raw:0xc0").find("starts with 'r'") != std::string::npos);
    CHECK(error_of("raw:r10000000000000000").find("more than 16") != std::string::npos);
    CHECK(error_of("raw:r12:x").find("':' is not a hex digit") != std::string::npos);
}

TEST_CASE("event selectors: pfm names with unit masks, PMU prefixes and privilege suffixes") {
    const EventSelector flops = parsed("pfm:RETIRED_SSE_AVX_FLOPS:ADD_SUB_FLOPS");
    CHECK(flops.family == EventSelector::Family::pfm);
    CHECK(flops.event == "RETIRED_SSE_AVX_FLOPS:ADD_SUB_FLOPS");
    CHECK(flops.privilege == Privilege::both);
    CHECK(family_source(flops.family) == "pfm");

    const EventSelector user = parsed("pfm:skl::INST_RETIRED:ANY_P:u");
    CHECK(user.event == "skl::INST_RETIRED:ANY_P");
    CHECK(user.privilege == Privilege::user_only);
    CHECK(user.text == "pfm:skl::INST_RETIRED:ANY_P:u");

    CHECK(parsed("pfm:PERF_COUNT_SW_TASK_CLOCK:k").privilege == Privilege::kernel_only);
    CHECK(parsed("pfm:UOPS_ISSUED:ANY:c=1").event == "UOPS_ISSUED:ANY:c=1");
    CHECK(parsed("pfm:cpu-cycles").event == "cpu-cycles");
}

TEST_CASE("event selectors: malformed pfm selectors are errors naming them") {
    CHECK(error_of("pfm:").find("'pfm:': no event name") != std::string::npos);
    CHECK(error_of("pfm:FOO::BAR:").find("an empty unit mask") != std::string::npos);
    CHECK(error_of("pfm:FOO:u:k").find("at most one of :u and :k") != std::string::npos);
    CHECK(error_of("pfm:::FOO").find("empty PMU name") != std::string::npos);
    CHECK(error_of("pfm:FOO BAR").find("' ' cannot appear") != std::string::npos);
    CHECK(error_of("pfm:../x").find("'/' cannot appear") != std::string::npos);
    CHECK(error_of("cycles").find("neither raw:") != std::string::npos);
}

TEST_CASE("event selectors: prefixes decide membership, globs select raw/pfm columns by name") {
    CHECK(is_event_selector("raw:r00c0"));
    CHECK(is_event_selector("pfm:X"));
    CHECK(is_event_selector("raw:zz"));  // belongs to the family, even though malformed
    CHECK_FALSE(is_event_selector("ipc"));
    CHECK_FALSE(is_event_selector("rawr00c0"));

    auto column = [](std::string name, std::string source) {
        MetricDescriptor d;
        d.name = std::move(name);
        d.header = d.name;
        d.source = std::move(source);
        d.available = true;
        return d;
    };
    const std::vector<MetricDescriptor> catalog{column("ipc", "perf"), column("raw:r00c0", "raw"),
                                                column("raw:r01c2", "raw"),
                                                column("pfm:CYCLES", "pfm")};
    const Selection raw = select_metrics(catalog, {"raw:*"});
    REQUIRE(raw.visible.size() == 2);
    CHECK(raw.visible[0].name == "raw:r00c0");
    CHECK(raw.visible[1].name == "raw:r01c2");
    CHECK(raw.unmatched.empty());
    CHECK(selects_source(catalog, {"pfm:*"}, "pfm"));
    CHECK_FALSE(selects_source(catalog, {"pfm:*"}, "raw"));
}
