// Linux: the topology from sysfs (/sys/devices/system/cpu and /sys/devices/system/node) under
// a configurable root, read through the sys() seam.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <system_error>
#include <utility>

#include "os/cpu_list.hpp"
#include "os/linux/sys.hpp"
#include "os/linux/sysfs_text.hpp"
#include "os/topology.hpp"

namespace glint::os {
namespace {

using linux_::read_cpu_list_file;
using linux_::read_integer;
using linux_::read_trimmed;

// "32K", "1024K", "8M" (sysfs cache sizes) as bytes.
std::optional<std::uint64_t> parse_size(const std::string& text) {
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(text.c_str(), &end, 10);
    if (end == text.c_str()) return std::nullopt;
    const std::string unit(end);
    if (unit.empty()) return n;
    if (unit == "K") return n << 10;
    if (unit == "M") return n << 20;
    if (unit == "G") return n << 30;
    return std::nullopt;
}

// The numbers of the "<prefix>N" entries of a directory, sorted.
std::vector<unsigned> numbered_entries(const std::string& dir, const std::string& prefix) {
    std::vector<unsigned> out;
    std::error_code ec;
    const std::regex name(prefix + "([0-9]+)");
    std::smatch m;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string file = entry.path().filename().string();
        if (std::regex_match(file, m, name)) out.push_back(static_cast<unsigned>(std::stoul(m[1])));
    }
    std::sort(out.begin(), out.end());
    return out;
}

// "Node 0 MemTotal:  6908108 kB" -> bytes of the named field.
std::optional<std::uint64_t> meminfo_field(const std::string& text, const std::string& field) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const auto at = line.find(field + ":");
        if (at == std::string::npos) continue;
        std::istringstream rest(line.substr(at + field.size() + 1));
        unsigned long long value = 0;
        std::string unit;
        if (!(rest >> value)) return std::nullopt;
        rest >> unit;
        return unit == "kB" ? value * 1024 : value;
    }
    return std::nullopt;
}

std::vector<CacheLevel> read_caches(const std::string& cpu_dir) {
    std::vector<CacheLevel> caches;
    for (unsigned index : numbered_entries(cpu_dir + "/cache", "index")) {
        const std::string dir = cpu_dir + "/cache/index" + std::to_string(index);
        CacheLevel c;
        const auto level = read_integer(dir + "/level");
        if (!level) continue;
        c.level = static_cast<unsigned>(*level);
        c.type = read_trimmed(dir + "/type").value_or("");
        if (auto size = read_trimmed(dir + "/size")) c.size_bytes = parse_size(*size);
        if (auto line = read_integer(dir + "/coherency_line_size"))
            c.line_bytes = static_cast<unsigned>(*line);
        c.shared_cpus =
            read_cpu_list_file(dir + "/shared_cpu_list").value_or(std::vector<unsigned>{});
        caches.push_back(std::move(c));
    }
    return caches;
}

// The CPUs sharing `cpu`'s core: core_cpus_list (Linux 5.x+), else thread_siblings_list.
std::optional<std::vector<unsigned>> core_cpus(const std::string& cpu_dir) {
    if (auto l = read_cpu_list_file(cpu_dir + "/topology/core_cpus_list")) return l;
    return read_cpu_list_file(cpu_dir + "/topology/thread_siblings_list");
}

}  // namespace

std::vector<NumaNode> read_numa_nodes(const std::string& sys_root) {
    const std::string root = sys_root + "/devices/system/node";
    std::vector<NumaNode> nodes;
    for (unsigned id : numbered_entries(root, "node")) {
        const std::string dir = root + "/node" + std::to_string(id);
        NumaNode n;
        n.id = id;
        n.cpus = read_cpu_list_file(dir + "/cpulist").value_or(std::vector<unsigned>{});
        std::string meminfo;
        if (linux_::read_small_file(dir + "/meminfo", meminfo)) {
            n.mem_total_bytes = meminfo_field(meminfo, "MemTotal");
            n.mem_free_bytes = meminfo_field(meminfo, "MemFree");
        }
        nodes.push_back(std::move(n));
    }
    return nodes;
}

Topology read_topology(const std::string& sys_root, unsigned cpu) {
    Topology t;
    const std::string cpu_root = sys_root + "/devices/system/cpu";
    auto online = read_cpu_list_file(cpu_root + "/online");
    t.online_cpus = online ? *online : numbered_entries(cpu_root, "cpu");
    t.known = !t.online_cpus.empty();
    t.cpu = cpu;
    std::set<long long> packages;
    std::set<std::pair<long long, std::string>> cores;
    for (unsigned c : t.online_cpus) {
        const std::string dir = cpu_root + "/cpu" + std::to_string(c);
        const auto package = read_integer(dir + "/topology/physical_package_id");
        if (package) packages.insert(*package);
        if (auto siblings = core_cpus(dir))
            cores.insert({package.value_or(-1), format_cpu_list(*siblings)});
    }
    t.packages = packages.size();
    t.cores = cores.size();
    const std::string dir = cpu_root + "/cpu" + std::to_string(cpu);
    t.smt_siblings = core_cpus(dir).value_or(std::vector<unsigned>{});
    t.caches = read_caches(dir);
    t.nodes = read_numa_nodes(sys_root);
    return t;
}

}  // namespace glint::os
