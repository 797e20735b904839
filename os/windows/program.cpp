// os/program.hpp on Windows: CreateProcess (no shell, no PATH search: the command line is
// argv quoted the way the C runtime splits it back), the standard handles inherited from the NUL
// device and the log file, and a wait on the process handle. An interrupt is passed on as
// Ctrl-Break to the program's own process group (what its console handler sees as Ctrl-C);
// where there is no console to carry it, or it outlives kInterruptGraceS, it is terminated.
#include "os/program.hpp"

#include <csignal>
#include <filesystem>

#include "os/process.hpp"
#include "os/windows/win32.hpp"

namespace glint::os {
namespace {

// One argument as CommandLineToArgvW and the C runtime read it back: quoted when it has a
// space, a tab or a quote; a run of backslashes before a quote (or the closing one) doubled.
void append_quoted(std::string& line, const std::string& arg) {
    if (!arg.empty() && arg.find_first_of(" \t\"") == std::string::npos) {
        line += arg;
        return;
    }
    line += '"';
    std::size_t backslashes = 0;
    for (char c : arg) {
        if (c == '\\') {
            ++backslashes;
            continue;
        }
        line.append(c == '"' ? 2 * backslashes + 1 : backslashes, '\\');
        backslashes = 0;
        line += c;
    }
    line.append(2 * backslashes, '\\');
    line += '"';
}

HANDLE open_inheritable(const char* path, DWORD access, DWORD disposition) {
    SECURITY_ATTRIBUTES inherit{sizeof inherit, nullptr, TRUE};
    return CreateFileA(path, access, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit, disposition,
                       FILE_ATTRIBUTE_NORMAL, nullptr);
}

}  // namespace

std::string windows::last_error_text(DWORD error) {
    char* text = nullptr;
    const DWORD n = FormatMessageA(
        FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
        nullptr, error, 0, reinterpret_cast<char*>(&text), 0, nullptr);
    std::string words = n ? std::string(text, n) : std::string("unknown error");
    LocalFree(text);
    while (!words.empty() && (words.back() == '\n' || words.back() == '\r' || words.back() == '.'))
        words.pop_back();
    return words + " (error " + std::to_string(error) + ")";
}

ProgramEnd run_program(const std::vector<std::string>& argv, const std::string& log_path) {
    ProgramEnd end;
    if (argv.empty()) {
        end.problem = "no program to run";
        return end;
    }
    std::string line;
    for (const auto& arg : argv) {
        if (!line.empty()) line += ' ';
        append_quoted(line, arg);
    }
    const HANDLE in = open_inheritable("NUL", GENERIC_READ, OPEN_EXISTING);
    const HANDLE log = open_inheritable(log_path.c_str(), GENERIC_WRITE, CREATE_NEW);
    if (log == INVALID_HANDLE_VALUE) {
        end.problem =
            "cannot create '" + log_path + "': " + windows::last_error_text(GetLastError());
        if (in != INVALID_HANDLE_VALUE) CloseHandle(in);
        return end;
    }
    STARTUPINFOA startup{};
    startup.cb = sizeof startup;
    startup.dwFlags = STARTF_USESTDHANDLES;
    startup.hStdInput = in;
    startup.hStdOutput = log;
    startup.hStdError = log;
    PROCESS_INFORMATION process{};
    const BOOL started =
        CreateProcessA(argv[0].c_str(), line.data(), nullptr, nullptr, TRUE,
                       CREATE_NEW_PROCESS_GROUP, nullptr, nullptr, &startup, &process);
    const DWORD error = GetLastError();
    CloseHandle(log);
    if (in != INVALID_HANDLE_VALUE) CloseHandle(in);
    if (!started) {
        end.problem = "cannot start '" + argv[0] + "': " + windows::last_error_text(error);
        return end;
    }
    end.started = true;
    CloseHandle(process.hThread);
    const auto grace_ms = static_cast<DWORD>(kInterruptGraceS * 1000);
    while (WaitForSingleObject(process.hProcess, end.interrupted ? grace_ms : 20) == WAIT_TIMEOUT) {
        if (end.interrupted) {  // it outlived the grace period
            TerminateProcess(process.hProcess, 128 + 9);
            WaitForSingleObject(process.hProcess, INFINITE);
            end.killed = true;
            break;
        }
        const int sig = wait_for_signal(0.02);  // 0: none, or not watched
        if (sig > 0 && is_interrupt_signal(sig)) {
            if (!GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, process.dwProcessId))
                TerminateProcess(process.hProcess, 128 + SIGINT);
            end.interrupted = sig;
        }
    }
    DWORD code = 0;
    GetExitCodeProcess(process.hProcess, &code);
    CloseHandle(process.hProcess);
    end.exit_code = static_cast<int>(code);
    return end;
}

bool is_executable(const std::string& path, std::string& why) {
    std::error_code ec;
    const std::filesystem::path file(path);
    if (!std::filesystem::is_regular_file(file, ec)) {
        why = ec ? ec.message() : "not a regular file";
        return false;
    }
    const std::string ext = file.extension().string();
    if (ext != ".exe" && ext != ".EXE" && ext != ".com" && ext != ".COM") {
        why = "not a program: Windows runs .exe and .com files";
        return false;
    }
    return true;
}

}  // namespace glint::os
