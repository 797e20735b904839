#include "engine/model/flag_value.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace glint::engine {

double parse_percent(std::string_view flag, std::string_view value) {
    std::string text(value);
    char* end = nullptr;
    errno = 0;
    const double d = std::strtod(text.c_str(), &end);
    // Decimal only, as every other number flag: strtod alone takes "0x10" and " 5".
    const bool plain = text.find_first_not_of("0123456789.eE+-") == std::string::npos;
    const std::string flag_text(flag);
    if (text.empty() || !plain || end != text.c_str() + text.size() || errno != 0 ||
        !std::isfinite(d))
        throw UsageError(flag_text + ": '" + text + "' is not a number; expected " + flag_text +
                         "=PCT (e.g. 5 for 5%)");
    if (d < 0 || d > 1000)
        throw UsageError(flag_text + ": must be between 0 and 1000 (percent), got " + text);
    return d;
}

}  // namespace glint::engine
