// engine/cli/ranges.hpp: the range of every numeric flag, checked after unit conversion, so no
// value a user can type makes a run loop for ever, wrap around, or grow memory without bound;
// inside the ranges the runner's arithmetic cannot overflow. The ranges are the constants below.
// Parsers throw UsageError naming the flag, the value and the range.
// Rationale and details: docs/rationale.md, "engine/cli/ranges.hpp".
#pragma once

#include <cstdint>
#include <string_view>

namespace glint::engine {

struct DecimalRange {
    double min;
    double max;
    bool zero_allowed;  // 0 is accepted as "off" (--case-timeout)
};

inline constexpr DecimalRange kMinTimeMsRange{0.001, 1000, false};
inline constexpr DecimalRange kCaseTimeoutRange{0.1, 604800, true};
inline constexpr std::uint64_t kMaxPassIterations = 1'000'000'000;
inline constexpr std::uint64_t kMaxRepetitions = 1000;
inline constexpr double kDefaultCaseTimeoutS = 300;
inline constexpr std::uint64_t kMaxProfileHz = 100'000;
inline constexpr std::uint64_t kMaxProfileSamples = 10'000'000;
inline constexpr DecimalRange kProfileTimeMsRange{1, 600'000, false};
inline constexpr unsigned kMaxCpuOrNode = 65'535;

// Parses a decimal number in `range`; throws UsageError naming `flag`, the value and the range
// (`unit` words the expected form: "MS (milliseconds)").
double parse_decimal_in(std::string_view flag, std::string_view value, DecimalRange range,
                        std::string_view unit);

// Parses a whole number in 1 .. max; throws UsageError naming `flag`, the value and the range.
std::uint64_t parse_count_in(std::string_view flag, std::string_view value, std::uint64_t max);

}  // namespace glint::engine
