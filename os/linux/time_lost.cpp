// Linux: steal from /proc/stat and the calling thread's run delay from its schedstat, read
// through the sys() seam under the given roots.
#include <unistd.h>

#include <cerrno>

#include "os/errors.hpp"
#include "os/linux/sys.hpp"
#include "os/time_lost.hpp"

namespace glint::os {
namespace {

std::string unreadable(const std::string& path, int error) {
    if (error == ENOENT) return path + " does not exist";
    return path + " is unreadable: " + describe_errno(error);
}

}  // namespace

StealReading read_steal(const SystemRoots& roots) {
    const std::string path = roots.proc + "/stat";
    std::string text;
    if (!linux_::read_small_file(path, text)) return {.why = unreadable(path, errno)};
    StealReading r = parse_proc_stat_steal(text);
    const long hz = ::sysconf(_SC_CLK_TCK);
    if (r.ok && hz <= 0) return {.why = "sysconf(_SC_CLK_TCK) does not say /proc/stat's tick"};
    r.tick_ns = r.ok ? 1'000'000'000 / hz : 0;
    return r;
}

RunDelayReading read_run_delay(const SystemRoots& roots) {
    const std::string path = roots.proc + "/thread-self/schedstat";
    std::string text;
    if (!linux_::read_small_file(path, text)) {
        const int error = errno;
        return {
            false,
            unreadable(path, error) +
                (error == ENOENT ? " (a kernel without CONFIG_SCHED_INFO, or before 3.17)" : "")};
    }
    return parse_schedstat(text);
}

}  // namespace glint::os
