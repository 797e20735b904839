// engine/cli/ranges.hpp: the range of every numeric flag, checked after unit conversion, so no
// value a user can type makes a run loop for ever, wrap around, or grow memory without bound.
//
//   --bench-min-time=MS     0.001 .. 1000 ms (a sample of 1 µs .. 1 s; decimals allowed)
//   --bench-repeat=N        1 .. 1000 repetitions of every case
//   --perf-iters=N          1 .. 10^9 iterations of a counting pass
//   --perf-batch=N          1 .. 10^9 iterations per counting bracket
//   --case-timeout=SECONDS  0.1 .. 604800 s (a week; decimals allowed), or 0 for no limit
//   --profile=HZ            1 .. 100000 samples per second (the kernel throttles far below)
//   --profile-samples=N     1 .. 10^7 samples per case (each kept until the case's profile is built)
//   --profile-time=MS       1 .. 600000 ms of sampling per case (decimals allowed)
//   --pin=CPU, --numa-node=N  0 .. 65535 (then checked against the CPUs and nodes that exist)
//
// Inside those ranges the runner's arithmetic cannot overflow: a sample's target is at most
// 1e9 ns, the per-call wall budget 200 times that, a pass at most 10^9 iterations.
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
