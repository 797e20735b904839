// tests/support/process.hpp: run a program, capture its stdout, stderr and exit status.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace glint::test {

struct ProcessResult {
    int exit_code = -1;  // -1 when killed by a signal (signal in term_signal)
    int term_signal = 0;
    std::string out;
    std::string err;
};

// Runs argv[0] with argv (no shell). extra_env entries are "KEY=VALUE" added to the environment.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>& extra_env = {});

// Path of a fixture executable built from tests/e2e/fixtures/<name>.cpp.
std::string fixture_path(const std::string& name);

std::string read_file(const std::string& path);

// Whether `text` (a captured output, a file) contains `part`.
inline bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

}  // namespace glint::test
