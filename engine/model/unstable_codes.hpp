// engine/model/unstable_codes.hpp: the short code each unstable reason shows in the tables
// (cpu-time -> "cpu"), so a reader sees per row why its median carries "~". The reasons
// themselves, and when they apply, are engine/stability/verdict.hpp's; the legend under the
// tables names the codes a run's rows show (engine/stability/unstable_legend.hpp). Pure.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace glint::engine {

// The code of a reason ("cpu-time" -> "cpu", "run-delay" -> "delay"); a reason this build does
// not know (a newer document's) is its own code.
std::string_view unstable_code(std::string_view reason);

// "cpu = cpu-time": a code beside the reason it stands for (the reason alone when they agree).
std::string code_of_reason(std::string_view reason);

// Codes shown in one table cell before the rest are counted ("cpu,mig,pre+2").
inline constexpr std::size_t kShownCodes = 3;

// A row's codes in its table cell: joined by ',' in the reasons' order, at most kShownCodes of
// them, then "+N" for the others (JSON rows[].unstable has every one); "" for a stable row.
std::string unstable_cell(const std::vector<std::string>& reasons);

// The codes of a row's reasons as the table cell shows them (at most kShownCodes), in order.
std::vector<std::string_view> shown_codes(const std::vector<std::string>& reasons);

}  // namespace glint::engine
