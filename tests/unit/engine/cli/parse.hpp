// tests/unit/engine/cli/parse.hpp: the command-line tests' shorthands for parse_options.
#pragma once

#include <string>
#include <vector>

#include "engine/cli/options.hpp"

namespace glint::engine::test {

inline Options parse(std::vector<const char*> args) { return parse_options(args); }

// The UsageError message parse_options throws for `args`; "" when they parse.
inline std::string error_of(std::vector<const char*> args) {
    try {
        parse_options(args);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace glint::engine::test
