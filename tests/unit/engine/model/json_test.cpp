#include <doctest/doctest.h>

#include <cmath>

#include "engine/model/json.hpp"

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
