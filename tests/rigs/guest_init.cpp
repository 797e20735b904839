// tests/rigs/guest_init.cpp: /init of the QEMU guest rigs (a static binary, PID 1), shared by
// the arm64 rig (tests/aarch64/) and the NUMA rig (tests/numa/).
//
// Mounts proc, sysfs, devtmpfs and a tmpfs, writes the settings of /etc/glint/sysctl ("PATH
// VALUE" lines), runs each command of /etc/glint/programs (one per line, arguments separated by
// spaces) with PATH=/bin, the KEY=VALUE lines of /etc/glint/env and every glint.env=KEY=VALUE
// word of the kernel command line in its environment, prints one result line and powers the
// machine off. The rig reads only the console:
//   GLINT-GUEST-RESULT <tag>: PASS
//   GLINT-GUEST-RESULT <tag>: FAIL <what failed>
// where <tag> is the glint.tag= word of the kernel command line. Any other ending (a crash of
// /init panics the kernel) has no PASS line, which the rig fails.
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

std::string read_file(const char* path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> lines_of(const char* path) {
    std::vector<std::string> lines;
    std::istringstream in(read_file(path));
    std::string line;
    while (std::getline(in, line))
        if (!line.empty() && line[0] != '#') lines.push_back(line);
    return lines;
}

std::vector<std::string> words_of(const std::string& text) {
    std::vector<std::string> words;
    std::istringstream in(text);
    std::string w;
    while (in >> w) words.push_back(w);
    return words;
}

void mount_or_say(const char* source, const char* target, const char* type) {
    ::mkdir(target, 0755);
    if (::mount(source, target, type, 0, nullptr) != 0 && errno != EBUSY)
        std::printf("glint-init: mount %s on %s failed: %s\n", type, target, std::strerror(errno));
}

bool write_text(const std::string& path, const std::string& text) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) return false;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

// Runs args with `env`, its stdout through a pipe copied to the console (so the programs print
// what they print into a pipe or a CI log, not their interactive form); returns "" on exit
// status 0, else what went wrong.
std::string run(const std::vector<std::string>& args, const std::vector<std::string>& env) {
    std::fflush(stdout);
    int out[2];
    if (::pipe(out) != 0) return std::string("pipe failed: ") + std::strerror(errno);
    const pid_t pid = ::fork();
    if (pid < 0) return std::string("fork failed: ") + std::strerror(errno);
    if (pid == 0) {
        ::dup2(out[1], STDOUT_FILENO);
        ::close(out[0]);
        ::close(out[1]);
        std::vector<char*> argv, envp;
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
        envp.push_back(nullptr);
        ::execve(argv[0], argv.data(), envp.data());
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
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
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
    ::chmod("/tmp", 01777);         // the engine tests write JSON there as an unprivileged user
    if (::fcntl(1, F_GETFD) < 0) {  // no console inherited: open it now
        const int fd = ::open("/dev/console", O_RDWR);
        if (fd >= 0) {
            ::dup2(fd, 0);
            ::dup2(fd, 1);
            ::dup2(fd, 2);
        }
    }
    std::setvbuf(stdout, nullptr, _IOLBF, 0);

    std::string tag = "unknown";
    std::vector<std::string> env = {"PATH=/bin"};
    for (const std::string& word : words_of(read_file("/proc/cmdline"))) {
        if (word.rfind("glint.tag=", 0) == 0) tag = word.substr(10);
        if (word.rfind("glint.env=", 0) == 0) env.push_back(word.substr(10));
    }
    for (const std::string& line : lines_of("/etc/glint/env")) env.push_back(line);

    std::vector<std::string> failures;
    for (const std::string& line : lines_of("/etc/glint/sysctl")) {
        const auto words = words_of(line);
        if (words.size() != 2 || !write_text(words[0], words[1] + "\n")) {
            failures.push_back("cannot write '" + line + "': " + std::strerror(errno));
            continue;
        }
        std::printf("glint-init: %s = %s", words[0].c_str(), read_file(words[0].c_str()).c_str());
    }
    for (const std::string& line : lines_of("/etc/glint/programs")) {
        const auto args = words_of(line);
        std::printf("glint-init: running %s\n", line.c_str());
        const std::string failure = run(args, env);
        if (!failure.empty()) failures.push_back(failure);
    }

    if (failures.empty()) {
        std::printf("GLINT-GUEST-RESULT %s: PASS\n", tag.c_str());
    } else {
        std::string all;
        for (const std::string& f : failures) all += (all.empty() ? "" : "; ") + f;
        std::printf("GLINT-GUEST-RESULT %s: FAIL %s\n", tag.c_str(), all.c_str());
    }
    std::fflush(stdout);
    ::sync();
    ::reboot(RB_POWER_OFF);
    return 0;
}
