// glint-compare's verdicts and intervals on a corpus of documents (corpus/, make_corpus.py) held
// to what it printed before the shift statistics moved to selection over one sorted copy
// (corpus/expected.txt from --format=json, corpus/expected_box.txt the table): identical
// verdicts, bases and figures row by row.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/compare/compare.hpp"
#include "engine/compare/compare_report.hpp"
#include "engine/compare/document.hpp"

using namespace glint::engine;

namespace {

const std::string kCorpus =
    std::string(GLINT_TEST_SOURCE_DIR) + "/tests/unit/engine/compare/corpus/";

// The comparisons, as glint-compare's arguments (comma-joined runs make one side).
const std::vector<std::vector<std::string>> kCases = {
    {"base1.json", "new1.json"},
    {"base1.json", "new1.json", "new2.json"},
    {"base1.json,base2.json,base3.json", "new1.json,new2.json,new3.json"},
    {"base1.json,base2.json", "new1.json,new2.json"},
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// One side as read_side reads it, the documents named as on glint-compare's command line.
RunDocument side(const std::string& argument) {
    std::vector<RunDocument> runs;
    for (const auto& file : side_files(argument)) {
        std::string error;
        auto doc = read_document(kCorpus + file, error);
        REQUIRE_MESSAGE(doc, error);
        doc->path = file;
        doc->files = {file};
        runs.push_back(std::move(*doc));
    }
    return merge_runs(std::move(runs));
}

struct Compared {
    std::vector<RunDocument> documents;
    Comparison comparison;
};

Compared compare_case(const std::vector<std::string>& arguments) {
    Compared out;
    for (const auto& a : arguments) out.documents.push_back(side(a));
    std::vector<const RunDocument*> series;
    for (const auto& d : out.documents) series.push_back(&d);
    out.comparison = compare_documents(series, CompareReportOptions{}.settings, std::nullopt);
    return out;
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    for (std::string field; std::getline(in, field, '|');) out.push_back(field);
    return out;
}

}  // namespace

TEST_CASE("compare corpus: verdicts, bases and figures equal those before selection changed") {
    std::vector<std::string> lines;
    {
        std::istringstream in(slurp(kCorpus + "expected.txt"));
        for (std::string line; std::getline(in, line);)
            if (!line.empty() && line[0] != '#') lines.push_back(line);
    }
    REQUIRE(lines.size() > 300);
    const char* strings[] = {"verdict", "basis", "intervalBasis", "shown"};
    const char* numbers[] = {"changePercent",         "ciLowPercent",           "ciHighPercent",
                             "repetitionsLowPercent", "repetitionsHighPercent", "runsLowPercent",
                             "runsHighPercent",       "cpuChangePercent"};
    std::size_t at = 0;
    for (std::size_t c = 0; c < kCases.size(); ++c) {
        const Compared compared = compare_case(kCases[c]);
        const Json json = comparison_json(compared.comparison, CompareReportOptions{});
        for (const Json& row : json.at("rows").as_array())
            for (const Json& change : row.at("changes").as_array()) {
                REQUIRE(at < lines.size());
                const std::vector<std::string> want = split(lines[at++]);
                REQUIRE(want.size() == 3 + std::size(strings) + std::size(numbers));
                CAPTURE(lines[at - 1]);
                CHECK(want[0] == std::to_string(c));
                CHECK(want[1] == row.at("displayName").as_string());
                CHECK(want[2] == change.at("document").as_string());
                std::size_t f = 3;
                for (const char* key : strings) {
                    const Json* v = change.find(key);
                    CHECK(want[f++] == (v ? v->as_string() : std::string("-")));
                }
                for (const char* key : numbers) {
                    const Json* v = change.find(key);
                    const std::string& w = want[f++];
                    CAPTURE(key);
                    if (!v || v->is_null()) {
                        CHECK(w == (v ? "null" : "-"));
                        continue;
                    }
                    // Both as printed (6 significant digits), read back.
                    REQUIRE(w != "null");
                    CHECK(std::stod(w) == std::stod(v->dump()));
                }
            }
    }
    CHECK(at == lines.size());
}

TEST_CASE("compare corpus: the table is the one printed before selection changed") {
    const std::string expected = slurp(kCorpus + "expected_box.txt");
    REQUIRE(!expected.empty());
    std::string text;
    for (const auto& arguments : kCases) {
        std::string line = "=== ";
        for (std::size_t i = 0; i < arguments.size(); ++i) line += (i ? " " : "") + arguments[i];
        const Compared compared = compare_case(arguments);
        text += line + "\n" +
                render_comparison(compared.comparison, CompareReportOptions{}, CompareFormat::box);
    }
    CHECK(text == expected);
}
