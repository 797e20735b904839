// os/callgrind.hpp's process half without an OS back end: no child processes, so no
// re-execution under Valgrind.
#include "os/callgrind.hpp"

namespace glint::os {

namespace {
constexpr const char* kNoCallgrindRun = "this OS back end runs no child processes";
}

std::string find_on_path(const std::string&, std::string& why) {
    why = kNoCallgrindRun;
    return {};
}

std::string self_executable(std::string& why) {
    why = kNoCallgrindRun;
    return {};
}

std::string make_private_folder(const std::string&, std::string& why) {
    why = kNoCallgrindRun;
    return {};
}

void remove_private_folder(const std::string&) {}

Waited run_inheriting(const std::vector<std::string>&, const std::vector<std::string>&) {
    Waited w;
    w.problem = kNoCallgrindRun;
    return w;
}

}  // namespace glint::os
