// engine/model/unstable_codes.hpp: the short code each unstable reason shows in the tables
// (cpu-time -> "cpu"), so a reader sees per row why its median carries "~". The reasons
// themselves, and when they apply, are engine/stability/verdict.hpp's; the legend under the
// tables names the codes a run's rows show (engine/stability/unstable_legend.hpp). Pure.
//
// A cell shows every reason: the codes are short (6 characters at most), so three reasons take
// about 15 columns, and a count ("+2") would send the reader back to the JSON.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace glint::engine {

// The code of a reason ("cpu-time" -> "cpu", "run-delay" -> "delay"); a reason this build does
// not know (a newer document's) is its own code.
std::string_view unstable_code(std::string_view reason);

// "cpu = cpu-time": a code beside the reason it stands for (the reason alone when they agree).
std::string code_of_reason(std::string_view reason);

// A row's codes joined by `separator` in the reasons' order ("cpu,mig"); "" for a stable row.
std::string unstable_cell(const std::vector<std::string>& reasons,
                          std::string_view separator = ",");

}  // namespace glint::engine
