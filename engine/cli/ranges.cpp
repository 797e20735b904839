#include "engine/cli/ranges.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

#include "engine/cli/options.hpp"

namespace glint::engine {

double parse_decimal_in(std::string_view flag, std::string_view value, DecimalRange range,
                        std::string_view unit) {
    const std::string text(value);
    char* end = nullptr;
    errno = 0;
    const double d = std::strtod(text.c_str(), &end);
    const bool plain =
        !text.empty() && text.find_first_not_of("0123456789.eE+-") == std::string::npos;
    if (!plain || end != text.c_str() + text.size() || !std::isfinite(d))
        throw UsageError(
            fmt::format("{}: '{}' is not a number; expected {}={}", flag, text, flag, unit));
    // An underflow (1e-400) is not the 0 that means "no limit": it is out of range.
    if (range.zero_allowed && d == 0 && errno != ERANGE) return 0;
    if (d <= 0 && errno != ERANGE)
        throw UsageError(fmt::format("{}: must be greater than 0{}, got {}", flag,
                                     range.zero_allowed ? " (or 0: no limit)" : "", text));
    if (d < range.min || d > range.max || errno == ERANGE)
        throw UsageError(fmt::format("{}: {} is out of range; it must be between {:g} and {:g}{}",
                                     flag, text, range.min, range.max,
                                     range.zero_allowed ? " (or 0: no limit)" : ""));
    return d;
}

std::uint64_t parse_count_in(std::string_view flag, std::string_view value, std::uint64_t max) {
    const std::string text(value);
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
        if (!text.empty() && text[0] == '-')
            throw UsageError(fmt::format("{}: must be a positive integer, got {}", flag, text));
        throw UsageError(
            fmt::format("{}: '{}' is not a positive integer; expected {}=N", flag, text, flag));
    }
    errno = 0;
    const unsigned long long n = std::strtoull(text.c_str(), nullptr, 10);
    if (n == 0) throw UsageError(fmt::format("{}: must be at least 1, got 0", flag));
    if (errno == ERANGE || n > max)
        throw UsageError(
            fmt::format("{}: {} is out of range; it must be between 1 and {}", flag, text, max));
    return n;
}

}  // namespace glint::engine
