// Checks before measuring: close names (engine/runner/preflight.hpp).
#include <doctest/doctest.h>

#include "engine/runner/preflight.hpp"

using namespace glint::engine;

TEST_CASE("preflight: the closest names come first, ties in the given order, duplicates once") {
    const std::vector<std::string> names = {"whole_body", "add_chain", "matrix/fill", "add_chain", "add_chains"};
    CHECK(closest_names("adx_chain", names, 2) == std::vector<std::string>{"add_chain", "add_chains"});
    CHECK(closest_names("x", names, 10).size() == 4);
    CHECK(closest_names("x", {}, 3).empty());
}
