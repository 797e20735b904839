// libFuzzer target: the flag parser. The input is split at NUL bytes into arguments; parsing
// must end in Options or a UsageError, and every accepted number must lie in its range.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/cli/options.hpp"
#include "engine/cli/ranges.hpp"

using namespace glint::engine;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args(1);
    for (std::size_t i = 0; i < size; ++i) {
        if (data[i] == 0) args.emplace_back();
        else args.back() += static_cast<char>(data[i]);
    }
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    try {
        const Options o = parse_options(argv);
        const TierRequest request = tier_request(o);
        (void)request;
        if (o.measuring.min_time_ms < kMinTimeMsRange.min ||
            o.measuring.min_time_ms > kMinTimeMsRange.max)
            __builtin_trap();
        if (o.perf_iters && (*o.perf_iters < 1 || *o.perf_iters > kMaxPassIterations))
            __builtin_trap();
        if (o.perf_batch && (*o.perf_batch < 1 || *o.perf_batch > kMaxPassIterations))
            __builtin_trap();
        if (o.cases.case_timeout_s != 0 && (o.cases.case_timeout_s < kCaseTimeoutRange.min ||
                                            o.cases.case_timeout_s > kCaseTimeoutRange.max))
            __builtin_trap();
        if (o.syscalls.size() > 62) __builtin_trap();
    } catch (const UsageError&) {}
    return 0;
}
