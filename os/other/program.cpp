// os/program.hpp without an OS back end: no child processes.
#include "os/program.hpp"

#include <filesystem>

namespace glint::os {

ProgramEnd run_program(const std::vector<std::string>& argv, const std::string&) {
    ProgramEnd end;
    end.problem = "cannot start '" + (argv.empty() ? std::string() : argv[0]) +
                  "': this OS back end runs no child processes";
    return end;
}

bool is_executable(const std::string& path, std::string& why) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        why = ec ? ec.message() : "not a regular file";
        return false;
    }
    return true;
}

}  // namespace glint::os
