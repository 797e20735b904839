#include <doctest/doctest.h>

#include <cmath>

#include "engine/model/json.hpp"
#include "engine/model/json_limits.hpp"

using namespace glint::engine;

TEST_CASE("json: deterministic numbers") {
    CHECK(format_json_number(3) == "3");
    CHECK(format_json_number(-0.0) == "0");
    CHECK(format_json_number(16777216) == "16777216");
    CHECK(format_json_number(11.4823456) == "11.4823");
    CHECK(format_json_number(0.000123456789) == "0.000123457");
    CHECK(format_json_number(std::nan("")) == "null");
    CHECK(format_json_number(1e300 * 1e300) == "null");
}

TEST_CASE("json: dump keeps insertion order and round-trips") {
    Json doc = Json::object();
    doc["schema"] = 2;
    doc["name"] = "a \"quoted\"\nname";
    doc["list"] = Json::Array{Json(1), Json(2.5), Json{}};
    doc["nested"]["b"] = true;
    std::string text = doc.dump();
    CHECK(text ==
          "{\n  \"schema\": 2,\n  \"name\": \"a \\\"quoted\\\"\\nname\",\n  \"list\": [1, 2.5, null],\n"
          "  \"nested\": {\n    \"b\": true\n  }\n}");
    Json back = Json::parse(text);
    CHECK(back == doc);
    CHECK(back.at("nested").at("b").as_bool());
    CHECK_THROWS_AS(Json::parse("{\"a\": }"), std::runtime_error);
    CHECK_THROWS_AS(Json::parse("[1, 2"), std::runtime_error);
}

TEST_CASE("json: nesting deeper than kMaxJsonParseDepth is refused with an error, never a crash") {
    const auto nested = [](std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); };
    CHECK(Json::parse(nested(kMaxJsonParseDepth)).is_array());
    CHECK_THROWS_AS(Json::parse(nested(kMaxJsonParseDepth + 1)), JsonTooDeep);
    // 200,000 levels would overflow the recursive reader's stack without the limit.
    try {
        (void)Json::parse("{\"a\": " + nested(200000) + "}");
        FAIL("a 200,000-deep document parsed");
    } catch (const JsonTooDeep& e) {
        CHECK(std::string(e.what()).find("nested deeper than 64") != std::string::npos);
    }
}
