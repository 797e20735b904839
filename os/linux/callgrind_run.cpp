// os/callgrind.hpp's process half on Linux: $PATH search, /proc/self/exe, mkdtemp, posix_spawn.
#include <dirent.h>
#include <limits.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "os/callgrind.hpp"
#include "os/program.hpp"

extern char** environ;

namespace glint::os {

std::string find_on_path(const std::string& name, std::string& why) {
    const char* path = std::getenv("PATH");
    const std::string dirs = path ? path : "";
    for (std::size_t start = 0; start <= dirs.size();) {
        std::size_t colon = dirs.find(':', start);
        if (colon == std::string::npos) colon = dirs.size();
        const std::string dir = colon > start ? dirs.substr(start, colon - start) : ".";
        const std::string candidate = dir + "/" + name;
        std::string unused;
        if (is_executable(candidate, unused)) return candidate;
        start = colon + 1;
    }
    why = "no executable '" + name + "' on $PATH (" + (dirs.empty() ? "unset" : dirs) + ")";
    return {};
}

std::string self_executable(std::string& why) {
    char buffer[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
    if (n <= 0) {
        why = std::string("cannot read /proc/self/exe: ") + std::strerror(errno);
        return {};
    }
    return std::string(buffer, static_cast<std::size_t>(n));
}

std::string make_private_folder(const std::string& prefix, std::string& why) {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + "XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
        why = "cannot make a folder from " + pattern + ": " + std::strerror(errno);
        return {};
    }
    return pattern;
}

void remove_private_folder(const std::string& folder) {
    if (folder.empty()) return;
    if (DIR* dir = ::opendir(folder.c_str())) {
        while (const dirent* entry = ::readdir(dir)) {
            const std::string name = entry->d_name;
            if (name != "." && name != "..") ::unlink((folder + "/" + name).c_str());
        }
        ::closedir(dir);
    }
    ::rmdir(folder.c_str());
}

Waited run_inheriting(const std::vector<std::string>& argv, const std::vector<std::string>& extra) {
    Waited w;
    const auto pointer = [](const std::string& s) { return const_cast<char*>(s.c_str()); };
    std::vector<char*> args(argv.size() + 1, nullptr), env;
    std::transform(argv.begin(), argv.end(), args.begin(), pointer);
    for (char** e = environ; e && *e; ++e) env.push_back(*e);
    std::transform(extra.begin(), extra.end(), std::back_inserter(env), pointer);
    env.push_back(nullptr);
    if (argv.empty()) {
        w.problem = "no program to run";
        return w;
    }
    pid_t pid = -1;
    const int error = ::posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), env.data());
    if (error != 0) {
        w.problem = "cannot start '" + argv[0] + "': " + std::strerror(error);
        return w;
    }
    w.started = true;
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) {
        if (errno == EINTR) continue;
        w.problem = std::string("waitpid failed: ") + std::strerror(errno);
        return w;
    }
    w.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return w;
}

}  // namespace glint::os
