// tests/aarch64/guest/init.cpp: /init of the arm64 guest (a static binary, PID 1).
//
// Mounts proc, sysfs, devtmpfs and a tmpfs, turns on kernel.perf_user_access, runs each program
// listed below with the CPU model the rig named on the kernel command line (glint.cpu=...),
// prints one result line and powers the machine off. The rig reads only the console:
//   GLINT-GUEST-RESULT cpu=<model>: PASS
//   GLINT-GUEST-RESULT cpu=<model>: FAIL <what failed>
// Any other ending (a crash of /init panics the kernel) has no PASS line, which the rig fails.
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Where the bench program writes its --bench-json document; the guest tests read it back.
constexpr const char* kBenchJson = "/tmp/glint-bench.json";

std::string read_file(const char* path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The value of `key=` on the kernel command line, or `fallback`.
std::string cmdline_value(const std::string& cmdline, const std::string& key,
                          const std::string& fallback) {
    std::istringstream words(cmdline);
    std::string word;
    while (words >> word) {
        if (word.rfind(key + "=", 0) == 0) return word.substr(key.size() + 1);
    }
    return fallback;
}

void mount_or_say(const char* source, const char* target, const char* type) {
    ::mkdir(target, 0755);
    if (::mount(source, target, type, 0, nullptr) != 0 && errno != EBUSY)
        std::printf("glint-init: mount %s on %s failed: %s\n", type, target, std::strerror(errno));
}

bool write_text(const char* path, const char* text) {
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::write(fd, text, std::strlen(text)) == static_cast<ssize_t>(std::strlen(text));
    ::close(fd);
    return ok;
}

// Runs argv with GLINT_GUEST_CPU set, its stdout through a pipe copied to the console (so the
// programs print what they print into a pipe or a CI log, not their interactive form); returns
// "" on exit status 0, else what went wrong.
std::string run(const std::vector<std::string>& args, const std::string& cpu) {
    std::fflush(stdout);
    int out[2];
    if (::pipe(out) != 0) return std::string("pipe failed: ") + std::strerror(errno);
    const pid_t pid = ::fork();
    if (pid < 0) return std::string("fork failed: ") + std::strerror(errno);
    if (pid == 0) {
        ::dup2(out[1], STDOUT_FILENO);
        ::close(out[0]);
        ::close(out[1]);
        std::vector<char*> argv;
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        const std::string env_cpu = "GLINT_GUEST_CPU=" + cpu;
        const std::string env_json = std::string("GLINT_BENCH_JSON=") + kBenchJson;
        char* envp[] = {const_cast<char*>(env_cpu.c_str()), const_cast<char*>(env_json.c_str()),
                        const_cast<char*>("PATH=/bin"), nullptr};
        ::execve(argv[0], argv.data(), envp);
        std::printf("glint-init: exec %s failed: %s\n", argv[0], std::strerror(errno));
        std::fflush(stdout);
        ::_exit(127);
    }
    ::close(out[1]);
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(out[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        std::fwrite(buffer, 1, static_cast<std::size_t>(n), stdout);
    }
    std::fflush(stdout);
    ::close(out[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
    if (WIFSIGNALED(status))
        return args[0] + " killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
               strsignal(WTERMSIG(status)) + ")";
    return args[0] + " exited with " + std::to_string(WEXITSTATUS(status));
}

}  // namespace

int main() {
    mount_or_say("proc", "/proc", "proc");
    mount_or_say("sysfs", "/sys", "sysfs");
    mount_or_say("devtmpfs", "/dev", "devtmpfs");
    mount_or_say("tmpfs", "/tmp", "tmpfs");
    ::chmod("/tmp", 01777);  // the engine tests write JSON there as an unprivileged user
    if (::fcntl(1, F_GETFD) < 0) {  // no console inherited: open it now
        const int fd = ::open("/dev/console", O_RDWR);
        if (fd >= 0) {
            ::dup2(fd, 0);
            ::dup2(fd, 1);
            ::dup2(fd, 2);
        }
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);

    const std::string cmdline = read_file("/proc/cmdline");
    const std::string cpu = cmdline_value(cmdline, "glint.cpu", "unknown");
    std::vector<std::string> failures;
    if (!write_text("/proc/sys/kernel/perf_user_access", "1\n"))
        failures.push_back(std::string("cannot set kernel.perf_user_access=1: ") +
                           std::strerror(errno));
    std::printf("glint-init: cpu=%s kernel.perf_user_access=%s", cpu.c_str(),
                read_file("/proc/sys/kernel/perf_user_access").c_str());

    // The bench program first (the shipped suite, one case, as a user runs it, with both
    // read paths' bracket costs in its header, and its sampled profile), then the tests, which
    // also check the document it wrote.
    const std::vector<std::vector<std::string>> programs = {
        {"/bin/glint_bench", "--bench", "--perf", "--perf-read=compare", "--bench-min-time=1",
         "--profile", "--filter=add_chain", std::string("--bench-json=") + kBenchJson},
        {"/bin/glint_guest_tests", "--no-colors=true", "--duration=true"},
    };
    for (const auto& program : programs) {
        std::printf("glint-init: running %s\n", program[0].c_str());
        const std::string failure = run(program, cpu);
        if (!failure.empty()) failures.push_back(failure);
    }

    if (failures.empty()) {
        std::printf("GLINT-GUEST-RESULT cpu=%s: PASS\n", cpu.c_str());
    } else {
        std::string all;
        for (const std::string& f : failures) all += (all.empty() ? "" : "; ") + f;
        std::printf("GLINT-GUEST-RESULT cpu=%s: FAIL %s\n", cpu.c_str(), all.c_str());
    }
    std::fflush(stdout);
    ::sync();
    ::reboot(RB_POWER_OFF);
    return 0;
}
