// Documents read row by row (engine/compare/document_stream.hpp) read as they did when the whole
// document was one tree: the errors below are the ones glint-compare printed then, word for word.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/compare/document.hpp"
#include "engine/compare/document_stream.hpp"
#include "engine/model/json_limits.hpp"

using namespace glint::engine;

namespace {

std::string error_of(const std::string& text) {
    std::string error;
    const auto doc = parse_document(text, "d.json", error);
    CHECK(!doc);
    return error;
}

std::vector<std::string> names_of(const std::string& text) {
    std::string error;
    const auto doc = parse_document(text, "d.json", error);
    REQUIRE_MESSAGE(doc, error);
    std::vector<std::string> out;
    for (const auto& row : doc->rows) out.push_back(identity_text(row));
    return out;
}

}  // namespace

TEST_CASE("document stream: a bad row is named by its place, after the schema is checked") {
    CHECK(error_of(R"({"schema":2,"rows":[[1,2],{"name":"a"}]})") ==
          "'d.json': row 1 is not an object");
    CHECK(error_of(R"({"schema":2,"rows":["just a string",{"name":"a"}]})") ==
          "'d.json': row 1 is not an object");
    CHECK(error_of(R"({"schema":2,"rows":[{"name":"a","medianNs":1},5]})") ==
          "'d.json': row 2 is not an object");
    CHECK(error_of(R"({"schema":2,"rows":[{"name":"a","medianNs":1},)"
                   R"({"name":"b","samplesNs":"x"},{"name":7}]})") ==
          "'d.json': row 2 \"samplesNs\" is not an array");
    // The schema is judged first even where it follows the rows, and a bad row then is not named.
    CHECK(error_of(R"({"rows":[{"name":"a","samplesNs":"x"}]})") ==
          "'d.json' is not a glint --bench-json document of schema 2");
    CHECK(error_of(R"({"rows":[{"name":"a","medianNs":1}],"schema":3})") ==
          "'d.json' is not a glint --bench-json document of schema 2");
    CHECK(error_of(R"([{"schema":2}])") ==
          "'d.json' is not a glint --bench-json document of schema 2");
    CHECK(
        error_of(R"({"schema":2,"rows":[{"name":"a","medianNs":1},{"name":"a","medianNs":2}]})") ==
        "'d.json' has two rows with the identity name 'a', labels {}: rows must differ in "
        "registration, name or labels to be compared");
}

TEST_CASE("document stream: malformed text anywhere is the parser's message, rows read or not") {
    CHECK(error_of(R"({"schema":2,"rows":[{"name":"a","medianNs":1},{"name":"b","medianNs":2})") ==
          "'d.json' is not JSON: [json.exception.parse_error.101] parse error at line 1, column "
          "72: syntax error while parsing array - unexpected end of input; expected ']'");
    CHECK(error_of(R"({"schema":2,"rows":[]} x)") ==
          "'d.json' is not JSON: [json.exception.parse_error.101] parse error at line 1, column "
          "24: syntax error while parsing value - invalid literal; last read: '\"rows\":[]} x'; "
          "expected end of input");
    const std::string deep =
        R"({"schema":2,"rows":[)" + std::string(70, '[') + std::string(70, ']') + "]}";
    CHECK(error_of(deep) == "'d.json' nests deeper than " + std::to_string(kMaxJsonDepth) +
                                " levels: not a glint --bench-json document");
}

TEST_CASE("document stream: a repeated rows key keeps the last, as a tree would") {
    CHECK(names_of(R"({"rows":[{"name":"a","medianNs":1},{"name":"b","medianNs":2}],"schema":2,)"
                   R"("rows":[{"name":"c","medianNs":3}]})") == std::vector<std::string>{"c"});
    CHECK(error_of(R"({"schema":2,"rows":[{"name":"a","medianNs":1}],"rows":{"x":1}})") ==
          "'d.json' has no rows array");
    // Only the top level's rows stream; rows elsewhere, and rows' own nesting, stay trees.
    CHECK(names_of(R"({"schema":2,"meta":{"rows":[1,2]},"rows":[{"name":"a","medianNs":1,)"
                   R"("labels":{"k":{"n":[1,[2]]}}}]})") ==
          std::vector<std::string>{"a [k={\"n\":[1,[2]]}]"});
    std::string error;
    const auto doc =
        parse_document(R"({"schema":2,"rows":[{"name":"a","medianNs":1,"samplesNs":[1,2,3]}],)"
                       R"("meta":{"host":"h"},"columns":[{"name":"instr","header":"I"}]})",
                       "d.json", error);
    REQUIRE_MESSAGE(doc, error);
    CHECK(doc->host == "h");
    REQUIRE(doc->columns.size() == 1);
    CHECK(doc->columns[0].header == "I");
    CHECK(doc->rows.at(0).samples_ns == std::vector<double>{1, 2, 3});
}

TEST_CASE("document stream: rows go to the caller one at a time, the tree keeps the rest") {
    std::vector<nlohmann::json> rows;
    int begins = 0;
    DocumentEvents events;
    events.rows_begin = [&] { ++begins; };
    events.row = [&](nlohmann::json&& r) { rows.push_back(std::move(r)); };
    const nlohmann::json doc = stream_document(
        R"({"a":[1,{"rows":[9]}],"rows":[{"x":[1,2]},3,"s",[4]],"b":null})", events);
    CHECK(begins == 1);
    REQUIRE(rows.size() == 4);
    CHECK(rows[0] == nlohmann::json::parse(R"({"x":[1,2]})"));
    CHECK(rows[1] == 3);
    CHECK(rows[2] == "s");
    CHECK(rows[3] == nlohmann::json::parse("[4]"));
    CHECK(doc == nlohmann::json::parse(R"({"a":[1,{"rows":[9]}],"rows":[],"b":null})"));
    CHECK_THROWS_AS(stream_document("{\"rows\":[1,", events), JsonReadError);
}
