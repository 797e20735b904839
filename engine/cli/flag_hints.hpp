// engine/cli/flag_hints.hpp: what an unknown flag's usage error adds. A Google Benchmark flag
// (--benchmark_*) is mapped to glint's own where one exists; any other gets the option table's
// closest flags ("did you mean"), or nothing when none is close.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace glint::engine {

// One Google Benchmark flag glint maps to its own: `ours` is glint's flag, "=V" standing for
// the value given, then a note (`--benchmark_format`/`_out_format` are mapped by their value).
struct BenchmarkFlagHint {
    std::string_view name;  // without its value
    std::string_view ours;
};
std::span<const BenchmarkFlagHint> benchmark_flag_hints();

// The whole message for the unknown argument `arg` (as given, value included).
std::string unknown_flag_message(std::string_view arg);

}  // namespace glint::engine
