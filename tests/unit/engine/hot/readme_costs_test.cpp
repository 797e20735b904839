// README's read-cost figures are the ones the tests assert: each entry of
// tests/support/headline_costs.hpp must appear in README in its stated phrase (whitespace,
// line breaks included, compared as single spaces), so README cannot quote a cost the tests do
// not pin.
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

TEST_CASE("README quotes the asserted read costs") {
    std::ifstream in(std::string(GLINT_TEST_SOURCE_DIR) + "/README.md");
    REQUIRE(in.good());
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string readme = squeeze(buffer.str());
    for (const glint::test::headline::Cost* cost : glint::test::headline::kAll) {
        INFO("README should say: \"" << phrase(*cost) << "\"");
        CHECK(readme.find(phrase(*cost)) != std::string::npos);
    }
}
