#include "engine_run.hpp"

#include <fcntl.h>
#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glint/main.hpp>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "guest_events.hpp"
#include "os/linux/aarch64/user_access.hpp"
#include "os/linux/sys.hpp"

namespace glint::guest {

using engine::Json;

namespace {

constexpr uid_t kNobody = 65534;

[[noreturn]] void run_child(const std::vector<std::string>& args, RunAs as, const std::string& json,
                            int out) {
    ::dup2(out, STDOUT_FILENO);
    ::dup2(out, STDERR_FILENO);
    ::close(out);
    if (as == RunAs::unprivileged) {
        if (::setgroups(0, nullptr) != 0 || ::setgid(kNobody) != 0 || ::setuid(kNobody) != 0) {
            std::printf("engine_run: cannot drop privileges: %s\n", std::strerror(errno));
            std::fflush(stdout);
            ::_exit(126);
        }
    }
    std::vector<std::string> all{"glint_guest_tests"};
    all.insert(all.end(), args.begin(), args.end());
    all.push_back("--bench-json=" + json);
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int status = glint::main(static_cast<int>(all.size()), argv.data());
    std::fflush(stdout);
    std::fflush(stderr);
    ::_exit(status);
}

}  // namespace

EngineRun run_engine(const std::vector<std::string>& args, RunAs as) {
    static int runs = 0;
    EngineRun run;
    const std::string json = "/tmp/glint-engine-" + std::to_string(++runs) + ".json";
    ::unlink(json.c_str());
    int out[2];
    if (::pipe(out) != 0) {
        run.failure = std::string("pipe: ") + std::strerror(errno);
        return run;
    }
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        run.failure = std::string("fork: ") + std::strerror(errno);
        return run;
    }
    if (pid == 0) {
        ::close(out[0]);
        run_child(args, as, json, out[1]);
    }
    ::close(out[1]);
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(out[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        run.output.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(out[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream in(json);
    if (in.good()) {
        std::stringstream text;
        text << in.rdbuf();
        run.doc = Json::parse(text.str());
    }
    ::unlink(json.c_str());
    return run;
}

const Json* find_path(const Json& doc, std::initializer_list<const char*> keys) {
    const Json* at = &doc;
    for (const char* key : keys) {
        if (!at->is_object()) return nullptr;
        at = at->find(key);
        if (at == nullptr) return nullptr;
    }
    return at;
}

const Json* find_row(const Json& doc, const std::string& name) {
    const Json* rows = find_path(doc, {"rows"});
    if (rows == nullptr || !rows->is_array()) return nullptr;
    for (const Json& row : rows->as_array()) {
        const Json* n = find_path(row, {"name"});
        if (n != nullptr && n->is_string() && n->as_string() == name) return &row;
    }
    return nullptr;
}

double metric_of(const Json& row, const char* metric) {
    const Json* v = find_path(row, {"metrics", metric});
    if (v == nullptr || !v->is_number()) return std::numeric_limits<double>::quiet_NaN();
    return v->as_number();
}

bool estimated(const Json& row, const char* metric) {
    const Json* list = find_path(row, {"estimatedMetrics"});
    if (list == nullptr || !list->is_array()) return false;
    for (const Json& m : list->as_array())
        if (m.is_string() && m.as_string() == metric) return true;
    return false;
}

ScopedSysctl::ScopedSysctl(const char* path, int value) : path_(path) {
    std::string text;
    if (os::linux_::read_small_file(path, text)) previous_ = os::linux_::parse_sysctl_int(text);
    write_sysctl(path, value);
}

ScopedSysctl::~ScopedSysctl() {
    if (previous_ >= 0) write_sysctl(path_, previous_);
}

}  // namespace glint::guest
