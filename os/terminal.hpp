// os/terminal.hpp: what the reporters need to know about the terminal, per OS
// (os/linux/terminal.cpp, os/other/terminal.cpp).
#pragma once

#include <cstddef>
#include <cstdio>
#include <optional>

namespace glint::os {

// True when standard output is a terminal (the live table repaints; piped output does not).
bool stdout_is_terminal();

// The width in columns of the terminal behind `out`, when it is one that says.
std::optional<std::size_t> terminal_columns(std::FILE* out);

}  // namespace glint::os
