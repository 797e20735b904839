#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "engine/model/json.hpp"
#include "engine/model/json_limits.hpp"
#include "engine/model/sanitize.hpp"

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
          "{\n  \"schema\": 2,\n  \"name\": \"a \\\"quoted\\\"\\nname\",\n  \"list\": [1, 2.5, "
          "null],\n"
          "  \"nested\": {\n    \"b\": true\n  }\n}");
    Json back = Json::parse(text);
    CHECK(back == doc);
    CHECK(back.at("nested").at("b").as_bool());
    CHECK_THROWS_AS(Json::parse("{\"a\": }"), std::runtime_error);
    CHECK_THROWS_AS(Json::parse("[1, 2"), std::runtime_error);
}

TEST_CASE(
    "json: the reader keeps members in document order, duplicates included, and reads escapes") {
    const Json doc = Json::parse(
        R"({"z": 1, "a": [true, null, -2.5e3, 18446744073709551615], "z": "\u00e9\ud83d\ude00"})");
    REQUIRE(doc.is_object());
    REQUIRE(doc.as_object().size() == 3);
    CHECK(doc.as_object()[0].first == "z");
    CHECK(doc.as_object()[1].first == "a");
    CHECK(doc.as_object()[2].second.as_string() == "\xC3\xA9\xF0\x9F\x98\x80");
    CHECK(doc.at("a") ==
          Json(Json::Array{Json(true), Json{}, Json(-2500.0), Json(18446744073709551615.0)}));
    CHECK(Json::parse(" 7 ") == Json(7));
    CHECK_THROWS_AS(Json::parse("[1] x"), JsonReadError);
    CHECK_THROWS_AS(Json::parse(""), JsonReadError);
}

TEST_CASE("json: nesting deeper than kMaxJsonDepth is refused with an error, never a crash") {
    const auto nested = [](std::size_t depth) {
        return std::string(depth, '[') + std::string(depth, ']');
    };
    CHECK(Json::parse(nested(kMaxJsonDepth)).is_array());
    CHECK_THROWS_AS(Json::parse(nested(kMaxJsonDepth + 1)), JsonReadError);
    CHECK(
        Json::parse(
            R"(["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\""])")
            .is_array());
    try {
        (void)Json::parse("{\"a\": " + nested(200000) + "}");
        FAIL("a 200,000-deep document parsed");
    } catch (const JsonReadError& e) {
        CHECK(e.too_deep);
        CHECK(std::string(e.what()).find("nests deeper than 64 levels at byte 69") !=
              std::string::npos);
    }
    try {
        (void)Json::parse("[1, 2");
        FAIL("a cut-short document parsed");
    } catch (const JsonReadError& e) {
        CHECK_FALSE(e.too_deep);
    }
}

TEST_CASE(
    "hostile: a parse error quotes the input as visible text, never raw invalid UTF-8 or "
    "escapes") {
    for (const std::string& text : {std::string("[\"a\xFF\xFE"), std::string("[1, \x1b[2J]")}) {
        INFO(text);
        std::string message;
        try {
            (void)Json::parse(text);
        } catch (const JsonReadError& e) {
            message = e.what();
        }
        REQUIRE_FALSE(message.empty());
        CHECK(sanitize::is_valid_utf8(message));
        CHECK(message.find('\x1b') == std::string::npos);
    }
}
