#include "os/terminal.hpp"

namespace glint::os {

// No OS back end: output is treated as piped (the table prints once, without escape codes).
bool stdout_is_terminal() { return false; }

std::optional<std::size_t> terminal_columns(std::FILE*) { return std::nullopt; }

}  // namespace glint::os
