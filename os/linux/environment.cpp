// Linux: the environment facts from sysfs and procfs under configurable roots (os/environment.hpp),
// read through the sys() seam.
#include <sys/personality.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "os/environment.hpp"
#include "os/linux/sys.hpp"
#include "os/linux/sysfs_text.hpp"
#include "os/perf_probes.hpp"

namespace glint::os {
namespace {

using linux_::read_cpu_list_file;
using linux_::read_integer;
using linux_::read_trimmed;

// The bracketed choice of a sysfs selector file: "always [madvise] never" -> "madvise".
std::string selected(const std::string& text) {
    const auto open = text.find('[');
    const auto close = text.find(']', open);
    if (open == std::string::npos || close == std::string::npos) return "";
    return text.substr(open + 1, close - open - 1);
}

// Whether /proc/cpuinfo's flags include "hypervisor" (x86: CPUID leaf 1, ECX bit 31).
bool cpuinfo_hypervisor_flag(const std::string& proc_root) {
    std::string text;
    if (!linux_::read_small_file(proc_root + "/cpuinfo", text)) return false;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("flags", 0) != 0) continue;
        std::istringstream words(line.substr(line.find(':') + 1));
        std::string w;
        while (words >> w)
            if (w == "hypervisor") return true;
        return false;
    }
    return false;
}

// A DMI vendor or product that names a virtual machine.
std::string dmi_hypervisor(const std::string& sys_root) {
    static const char* kKnown[] = {
        "QEMU",       "KVM",    "VMware",  "VirtualBox", "Xen",   "Microsoft Corporation",
        "Amazon EC2", "Google", "innotek", "Parallels",  "Bochs", "BHYVE"};
    for (const char* file : {"sys_vendor", "product_name"}) {
        const auto text = read_trimmed(sys_root + "/class/dmi/id/" + file);
        if (!text) continue;
        for (const char* k : kKnown)
            if (text->find(k) != std::string::npos) return *text;
    }
    return "";
}

void detect_hypervisor(const SystemRoots& roots, EnvironmentFacts& f) {
    if (auto type = read_trimmed(roots.sys + "/hypervisor/type"); type && !type->empty()) {
        f.hypervisor = true;
        f.hypervisor_name = *type;
        f.hypervisor_source = "/sys/hypervisor/type";
        return;
    }
    const std::string dmi = dmi_hypervisor(roots.sys);
    if (!dmi.empty()) {
        f.hypervisor = true;
        f.hypervisor_name = dmi;
        f.hypervisor_source = "DMI (/sys/class/dmi/id)";
        return;
    }
    if (cpuinfo_hypervisor_flag(roots.proc)) {
        f.hypervisor = true;
        f.hypervisor_source = "the CPU's hypervisor flag (/proc/cpuinfo)";
    }
}

std::optional<int> read_int(const std::string& path) {
    const auto v = read_integer(path);
    return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
}

}  // namespace

LoadAverage read_load_average(const SystemRoots& roots) {
    LoadAverage load;
    const auto text = read_trimmed(roots.proc + "/loadavg");
    if (!text) return load;
    double a = NAN, b = NAN, c = NAN;
    if (std::sscanf(text->c_str(), "%lf %lf %lf", &a, &b, &c) == 3) load = {a, b, c};
    return load;
}

EnvironmentFacts read_environment(const SystemRoots& roots, std::vector<unsigned> cpus) {
    EnvironmentFacts f;
    f.known = true;
    std::sort(cpus.begin(), cpus.end());
    f.cpus = std::move(cpus);
    const std::string cpu_root = roots.sys + "/devices/system/cpu";
    for (unsigned c : f.cpus) {
        const auto governor =
            read_trimmed(cpu_root + "/cpu" + std::to_string(c) + "/cpufreq/scaling_governor");
        if (governor && !governor->empty()) f.governors.emplace_back(c, *governor);
    }
    if (auto boost = read_integer(cpu_root + "/cpufreq/boost")) {
        f.boost = *boost != 0;
        f.boost_source = cpu_root + "/cpufreq/boost";
    } else if (auto no_turbo = read_integer(cpu_root + "/intel_pstate/no_turbo")) {
        f.boost = *no_turbo == 0;
        f.boost_source = cpu_root + "/intel_pstate/no_turbo";
    }
    if (auto smt = read_integer(cpu_root + "/smt/active")) f.smt_active = *smt != 0;
    f.isolated = read_cpu_list_file(cpu_root + "/isolated");
    f.nohz_full = read_cpu_list_file(cpu_root + "/nohz_full");
    // The kernel prints "(null)" in nohz_full when the feature is built but not in use.
    if (!f.nohz_full) {
        if (auto text = read_trimmed(cpu_root + "/nohz_full"); text && *text == "(null)")
            f.nohz_full = std::vector<unsigned>{};
    }
    f.load = read_load_average(roots);
    detect_hypervisor(roots, f);
    const PmuInventory pmus = list_pmus(roots.sys + "/bus/event_source/devices");
    if (pmus.listed) f.cpu_pmu = !pmus.cpu_pmus.empty();
    f.nmi_watchdog = read_int(roots.proc + "/sys/kernel/nmi_watchdog");
    f.aslr = read_int(roots.proc + "/sys/kernel/randomize_va_space");
    if (const int persona = ::personality(0xffffffff); persona != -1)
        f.no_randomize = (persona & ADDR_NO_RANDOMIZE) != 0;
    f.perf_event_paranoid = read_int(roots.proc + "/sys/kernel/perf_event_paranoid");
    if (auto thp = read_trimmed(roots.sys + "/kernel/mm/transparent_hugepage/enabled"))
        f.thp = selected(*thp);
    f.privileged = ::geteuid() == 0;
    return f;
}

}  // namespace glint::os
