// os/terminal.hpp on Windows: a console is a terminal; its width is the console window's.
#include "os/terminal.hpp"

#include <io.h>

#include "os/windows/win32.hpp"

namespace glint::os {

// A console that takes the escape codes the live table repaints with (virtual terminal
// processing, switched on here; Windows 10 and later).
bool stdout_is_terminal() {
    const HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
    DWORD mode = 0;
    if (!GetConsoleMode(out, &mode)) return false;
    return SetConsoleMode(out, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

std::optional<std::size_t> terminal_columns(std::FILE* stream) {
    const auto handle = reinterpret_cast<HANDLE>(_get_osfhandle(_fileno(stream)));
    CONSOLE_SCREEN_BUFFER_INFO info;
    if (handle == INVALID_HANDLE_VALUE || !GetConsoleScreenBufferInfo(handle, &info))
        return std::nullopt;
    const int columns = info.srWindow.Right - info.srWindow.Left + 1;
    if (columns <= 0) return std::nullopt;
    return static_cast<std::size_t>(columns);
}

}  // namespace glint::os
