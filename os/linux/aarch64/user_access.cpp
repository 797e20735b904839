#include "os/linux/aarch64/user_access.hpp"

#include <linux/perf_event.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <system_error>

#include "os/linux/sys.hpp"

namespace glint::os::linux_ {

int parse_sysctl_int(const std::string& text) {
    std::size_t end = text.size();
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ')) --end;
    if (end == 0 || end > 9) return -1;
    int value = 0;
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] < '0' || text[i] > '9') return -1;
        value = value * 10 + (text[i] - '0');
    }
    return value;
}

UserAccessSysctl read_perf_user_access(const char* path) {
    UserAccessSysctl s;
    std::string text;
    if (!read_small_file(path, text)) {
        s.error = errno;
        return s;
    }
    s.value = parse_sysctl_int(text);
    if (s.value < 0) s.error = EINVAL;
    return s;
}

UserAccessDecision decide_user_access(const UserAccessSysctl& sysctl) {
    UserAccessDecision d;
    if (sysctl.value >= 1) {
        d.allowed = true;
        return d;
    }
    if (sysctl.value == 0) {
        d.reason =
            "kernel.perf_user_access is 0: EL0 counter reads are disabled, counters are "
            "read with read(2)";
        d.remedy = kPerfUserAccessRemedy;
    } else if (sysctl.error == ENOENT) {
        d.reason =
            "this kernel has no kernel.perf_user_access (arm64 user access needs Linux "
            "5.17 or later): counters are read with read(2)";
    } else {
        d.reason = std::string("cannot read ") + kPerfUserAccessPath + ": " +
                   std::generic_category().message(sysctl.error) +
                   "; counters are read with read(2)";
    }
    return d;
}

std::vector<std::string> armv8_pmu_candidates(const std::vector<std::string>& device_names) {
    std::vector<std::string> generic, named;
    for (const std::string& n : device_names) {
        if (n.rfind("armv8_pmuv3", 0) == 0) {
            generic.push_back(n);
        } else if (n.rfind("armv8_", 0) == 0) {
            named.push_back(n);
        }
    }
    std::sort(generic.begin(), generic.end());
    std::sort(named.begin(), named.end());
    generic.insert(generic.end(), named.begin(), named.end());
    return generic;
}

Armv8Pmu find_armv8_pmu(const std::string& devices_dir) {
    Armv8Pmu pmu;
    std::vector<std::string> names;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(devices_dir, ec), end; !ec && it != end;
         it.increment(ec)) {
        names.push_back(it->path().filename().string());
    }
    if (ec && names.empty()) {
        pmu.reason = "cannot list " + devices_dir + ": " + ec.message();
        return pmu;
    }
    pmu.listed = true;
    const std::vector<std::string> candidates = armv8_pmu_candidates(names);
    pmu.candidates = candidates.size();
    if (candidates.empty()) {
        pmu.reason = "no armv8 core PMU under " + devices_dir +
                     " (no hardware PMU, or the kernel lacks its driver)";
        return pmu;
    }
    pmu.name = candidates.front();
    std::string text;
    const std::string type_path = devices_dir + "/" + pmu.name + "/type";
    if (!read_small_file(type_path, text)) {
        pmu.reason = "cannot read " + type_path + ": " + std::generic_category().message(errno);
        return pmu;
    }
    const int type = parse_sysctl_int(text);
    if (type < 0) {
        pmu.reason = type_path + " does not hold a PMU type";
        return pmu;
    }
    pmu.type = static_cast<std::uint32_t>(type);
    pmu.found = true;
    return pmu;
}

UserAccessGrant plan_user_access(const std::string& devices_dir, const char* sysctl_path) {
    using Mode = UserAccessGrant::Mode;
    UserAccessGrant grant;
    const Armv8Pmu pmu = find_armv8_pmu(devices_dir);
    grant.pmu = pmu.name;
    if (!pmu.listed || pmu.candidates == 0) {
        grant.mode = Mode::not_applicable;
        grant.reason = pmu.reason;
        return grant;
    }
    if (pmu.candidates > 1) {
        grant.mode = Mode::refused;
        grant.reason = std::to_string(pmu.candidates) +
                       " arm64 core PMUs (a heterogeneous system): user access is not asked "
                       "for, since a thread's events follow it across core types; counters are "
                       "read with read(2)";
        return grant;
    }
    if (!pmu.found) {
        grant.mode = Mode::refused;
        grant.reason = pmu.reason + "; counters are read with read(2)";
        return grant;
    }
    const UserAccessDecision decision = decide_user_access(read_perf_user_access(sysctl_path));
    if (!decision.allowed) {
        grant.mode = Mode::refused;
        grant.reason = decision.reason;
        grant.remedy = decision.remedy;
        return grant;
    }
    grant.mode = Mode::requested;
    return grant;
}

UserAccessOpen open_user_access_event(const perf_event_attr& attr, pid_t pid, int cpu, int group_fd,
                                      unsigned long flags, bool want_64bit) {
    UserAccessOpen result;
    perf_event_attr a = attr;
    a.config1 |= kArm64Config1UserAccess;
    if (want_64bit) {
        a.config1 |= kArm64Config1Counter64;
        result.fd = sys().perf_event_open(&a, pid, cpu, group_fd, flags);
        if (result.fd >= 0) {
            result.counter64 = true;
            return result;
        }
        result.error = errno;
        if (result.error != EOPNOTSUPP) return result;
        result.fell_back_to_32 = true;
    }
    a.config1 &= ~kArm64Config1Counter64;
    result.fd = sys().perf_event_open(&a, pid, cpu, group_fd, flags);
    result.error = result.fd < 0 ? errno : 0;
    return result;
}

Arm64Layout arm64_layout_of(const std::uint32_t* indices, const unsigned* widths, std::size_t count,
                            std::size_t max_slots) {
    Arm64Layout layout;
    if (count == 0 || count > max_slots) return layout;
    const auto valid_width = [](unsigned w) { return w == 32 || w == 64; };
    std::size_t i = 0;
    if (indices[0] == 32) {
        if (!valid_width(widths[0])) return layout;
        layout.cycles_first = true;
        layout.cycles_width = widths[0];
        i = 1;
    }
    if (i < count) {
        if (!valid_width(widths[i])) return layout;
        layout.event_width = widths[i];
    }
    for (std::uint32_t expected = 1; i < count; ++i, ++expected) {
        if (indices[i] != expected || widths[i] != layout.event_width) return layout;
    }
    layout.events = static_cast<unsigned>(count - (layout.cycles_first ? 1 : 0));
    layout.specialised = true;
    return layout;
}

}  // namespace glint::os::linux_
