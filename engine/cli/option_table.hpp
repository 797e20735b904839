// engine/cli/option_table.hpp: every flag once, as a row. The parser, --help, the knobs JSON
// meta records and docs/flags.md (--help-markdown) all read these rows.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "engine/cli/options.hpp"
#include "engine/model/json.hpp"

namespace glint::engine {

enum class Takes { nothing, value, optional_value, anything };
// Where a flag does something: in every mode; in a --bench run only; in a --bench run and the
// informational modes, which open the tiers it names (otherwise a note says it has no effect).
enum class Scope { anywhere, bench, counting };

struct OptionRow {
    std::string_view flag;  // "--bench-min-time"
    Scope scope;
    std::string_view shown;  // the value as --help shows it: "=MS", "[=HZ]", "" (none)
    Takes takes;
    std::string_view form;     // the value's form in "needs a value" messages
    std::string_view help;     // --help's lines, '\n'-separated
    std::string_view knob;     // its key in JSON meta.knobs ("" = not recorded)
    std::string_view example;  // a value the parser accepts
    // How it is stored: throws UsageError naming `flag` for a bad value.
    void (*store)(Options& o, std::string_view flag, std::string_view value, bool has_value);
    Json (*recorded)(const Options& o) = nullptr;  // the knob's value
    bool hidden = false;                           // not in --help or the docs
    // Given twice with a value: a usage error naming both, unless the row is repeatable (its
    // help then says what a repetition does).
    bool repeatable = false;
};

std::span<const OptionRow> option_rows();
// The row for `flag` ("-h" is --help); nullptr for none.
const OptionRow* find_option(std::string_view flag);

// The --help text and the docs' flags reference (docs/flags.md), from the rows.
std::string help_text();
std::string flags_markdown();

// JSON meta.knobs: each recorded row's value, and the fixed sample count.
Json recorded_knobs(const Options& options);

}  // namespace glint::engine
