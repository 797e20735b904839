// engine/cli/option_rows.hpp: the option table's rows by concern, each group in --help's
// order; option_rows() (option_table.hpp) is the four in the order below.
#pragma once

#include <span>
#include <string_view>

#include "engine/cli/option_table.hpp"

namespace glint::engine {

// The row tables' shorthand.
namespace option_rows_shorthand {
using SV = std::string_view;
inline constexpr Takes kNone = Takes::nothing, kValue = Takes::value;
inline constexpr Scope kAnywhere = Scope::anywhere, kBench = Scope::bench,
                       kCounting = Scope::counting;
}  // namespace option_rows_shorthand

std::span<const OptionRow> run_option_rows();       // what runs and how it is measured
std::span<const OptionRow> output_option_rows();    // what a run writes, compares and gates
std::span<const OptionRow> counting_option_rows();  // counting passes and the profile
std::span<const OptionRow> about_option_rows();     // --version, --help

}  // namespace glint::engine
