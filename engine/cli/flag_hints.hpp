// engine/cli/flag_hints.hpp: what an unknown flag's usage error adds. A Google Benchmark flag
// (--benchmark_*) is mapped to glint's own where one exists; any other gets the option table's
// closest flags ("did you mean"), or nothing when none is close.
#pragma once

#include <string>
#include <string_view>

namespace glint::engine {

// The whole message for the unknown argument `arg` (as given, value included).
std::string unknown_flag_message(std::string_view arg);

}  // namespace glint::engine
