#include "os/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

namespace glint::os {

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

std::optional<std::size_t> terminal_columns(std::FILE* out) {
    winsize size{};
    if (::ioctl(::fileno(out), TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return std::nullopt;
    return size.ws_col;
}

}  // namespace glint::os
