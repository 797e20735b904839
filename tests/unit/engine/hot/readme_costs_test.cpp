// docs/hot-loop.md's read-cost figures (its "Cost" section) are the ones the tests assert: each
// entry of tests/support/headline_costs.hpp must appear there in its stated phrase (whitespace,
// line breaks included, compared as single spaces), so the guide cannot quote a cost the tests
// do not pin.
#include <doctest/doctest.h>

#include <cctype>
#include <fstream>
#include <sstream>
#include <string>

#include "support/headline_costs.hpp"

namespace {

std::string squeeze(const std::string& text) {
    std::string out;
    bool space = false;
    for (const char c : text) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            space = true;
            continue;
        }
        if (space && !out.empty()) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

std::string phrase(const glint::test::headline::Cost& cost) {
    std::string text = cost.readme;
    const std::size_t at = text.find("{}");
    REQUIRE(at != std::string::npos);
    return squeeze(text.replace(at, 2, std::to_string(cost.instructions)));
}

}  // namespace

TEST_CASE("docs/hot-loop.md quotes the asserted read costs in its Cost section") {
    std::ifstream in(std::string(GLINT_TEST_SOURCE_DIR) + "/docs/hot-loop.md");
    REQUIRE(in.good());
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string page = buffer.str();
    const std::size_t begin = page.find("\n## Cost\n");
    REQUIRE(begin != std::string::npos);
    const std::string section = squeeze(page.substr(begin, page.find("\n## ", begin + 1) - begin));
    for (const glint::test::headline::Cost* cost : glint::test::headline::kAll) {
        INFO("docs/hot-loop.md's Cost section should say: \"" << phrase(*cost) << "\"");
        CHECK(section.find(phrase(*cost)) != std::string::npos);
    }
}
