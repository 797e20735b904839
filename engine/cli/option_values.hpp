// engine/cli/option_values.hpp: what the option rows (option_rows_*.cpp) parse a flag's value
// with and record it as. A parser throws UsageError naming the flag, the value and the fix.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/cli/options.hpp"
#include "engine/model/json.hpp"

namespace glint::engine {

// The non-empty items of a comma-separated list.
std::vector<std::string> split_list(std::string_view text);
// Throws UsageError "FLAG: WHAT".
[[noreturn]] void fail_flag(std::string_view flag, const std::string& what);
// Throws UsageError naming the allowed values unless `value` is one of them.
void require_one_of(std::string_view flag, std::string_view value,
                    std::initializer_list<std::string_view> allowed);
// A CPU or NUMA node number, 0 to kMaxCpuOrNode; `form` words it in the error ("CPU|auto").
unsigned parse_cpu_or_node(std::string_view flag, std::string_view value, std::string_view form);

// --perf-read's value as the flag spells it.
const char* perf_read_name(PerfRead r);
Json json_strings(const std::vector<std::string>& items);
Json json_count_or_null(const std::optional<std::uint64_t>& n);  // null when not given

}  // namespace glint::engine
