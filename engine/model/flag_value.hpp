// engine/model/flag_value.hpp: what glint's and glint-compare's command lines share: the error a
// bad flag raises (its message names the flag and the fix; exit 2) and the percentage value.
#pragma once

#include <stdexcept>
#include <string_view>

namespace glint::engine {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A percentage flag's value (0 to 1000, "5" for 5%), as given; UsageError naming `flag` else.
double parse_percent(std::string_view flag, std::string_view value);

}  // namespace glint::engine
