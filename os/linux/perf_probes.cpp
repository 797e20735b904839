// Linux facts behind the counting layer's statuses: registered PMUs (sysfs), the paranoid
// level (procfs), tracepoint counting (tracefs + perf_event_open), loadable libraries (dlopen).
// Kernel calls go through sys() so tests can fake them; the sysfs listing takes a root path.
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "os/linux/sys.hpp"
#include "os/perf_probes.hpp"

namespace glint::os {
namespace {

using linux_::sys;

bool is_cpu_pmu(const std::filesystem::path& dir) {
    const std::string name = dir.filename().string();
    if (name == "cpu" || name == "cpu_core" || name == "cpu_atom") return true;
    std::error_code ec;
    return std::filesystem::exists(dir / "events" / "cpu-cycles", ec) ||
           std::filesystem::exists(dir / "events" / "cpu_cycles", ec);
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
}

}  // namespace

PmuInventory list_pmus(const std::string& root) {
    PmuInventory inventory;
    std::error_code ec;
    std::filesystem::directory_iterator it(root, ec);
    if (ec) return inventory;
    inventory.listed = true;
    for (const auto& entry : it) {
        inventory.devices.push_back(entry.path().filename().string());
        if (is_cpu_pmu(entry.path())) inventory.cpu_pmus.push_back(inventory.devices.back());
    }
    std::sort(inventory.devices.begin(), inventory.devices.end());
    std::sort(inventory.cpu_pmus.begin(), inventory.cpu_pmus.end());
    return inventory;
}

std::optional<int> pmu_max_precise(const std::string& root) {
    std::optional<int> best;
    for (const std::string& pmu : list_pmus(root).cpu_pmus) {
        std::string text;
        if (!linux_::read_small_file(root + "/" + pmu + "/caps/max_precise", text)) continue;
        char* end = nullptr;
        text = trim(text);
        const long value = std::strtol(text.c_str(), &end, 10);
        if (text.empty() || *end != '\0' || value < 0) continue;
        best = std::max(best.value_or(0), static_cast<int>(value));
    }
    return best;
}

std::optional<int> perf_event_paranoid() {
    std::string text;
    if (!linux_::read_small_file("/proc/sys/kernel/perf_event_paranoid", text)) return std::nullopt;
    text = trim(text);
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    const long value = std::strtol(text.c_str(), &end, 10);
    if (end == text.c_str()) return std::nullopt;
    return static_cast<int>(value);
}

TracepointProbe probe_tracepoint_counting() {
    TracepointProbe probe;
    for (const char* root : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
        if (sys().access((std::string(root) + "/events").c_str(), F_OK) == 0) {
            probe.tracefs = root;
            break;
        }
    }
    if (probe.tracefs.empty()) {
        probe.outcome = TracepointProbe::Outcome::no_tracefs;
        probe.error = ENOENT;
        return probe;
    }
    probe.id_path = probe.tracefs + "/events/raw_syscalls/sys_enter/id";
    std::string text;
    if (!linux_::read_small_file(probe.id_path, text)) {
        probe.outcome = TracepointProbe::Outcome::id_unreadable;
        probe.error = errno;
        return probe;
    }
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_TRACEPOINT;
    attr.config = std::strtoull(trim(text).c_str(), nullptr, 10);
    attr.disabled = 1;
    int fd;
    do {
        fd = sys().perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        probe.outcome = TracepointProbe::Outcome::open_refused;
        probe.error = errno;
        return probe;
    }
    sys().close(fd);
    probe.outcome = TracepointProbe::Outcome::countable;
    return probe;
}

LibraryProbe probe_library(const char* soname, const char* version_function) {
    LibraryProbe probe;
    probe.soname = soname;
    void* handle = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* error = ::dlerror();
        probe.error = error ? error : "dlopen failed";
        return probe;
    }
    probe.loaded = true;
    if (version_function != nullptr) {
        if (void* symbol = ::dlsym(handle, version_function)) {
            auto fn = reinterpret_cast<int (*)()>(symbol);
            probe.version = fn();
        }
    }
    ::dlclose(handle);
    return probe;
}

}  // namespace glint::os
