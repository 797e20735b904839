#include "engine/environment/checks.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "engine/model/json_values.hpp"
#include "os/cpu_list.hpp"

namespace glint::engine {
namespace {

using os::format_cpu_list;

std::string cpus_word(const std::vector<unsigned>& cpus) {
    return (cpus.size() == 1 ? "CPU " : "CPUs ") + format_cpu_list(cpus);
}

void governor(const os::EnvironmentFacts& f, std::vector<EnvironmentWarning>& out) {
    std::map<std::string, std::vector<unsigned>> slow;  // governor -> CPUs
    for (const auto& [cpu, g] : f.governors)
        if (g != "performance") slow[g].push_back(cpu);
    for (const auto& [g, cpus] : slow)
        out.push_back({"governor",
                       fmt::format("cpufreq governor '{}' on {}: the clock follows the load", g,
                                   cpus_word(cpus)),
                       "cpupower frequency-set -g performance (root)"});
}

void boost(const os::EnvironmentFacts& f, std::vector<EnvironmentWarning>& out) {
    if (!f.boost || !*f.boost) return;
    const bool pstate = f.boost_source.find("intel_pstate") != std::string::npos;
    out.push_back({"boost", "frequency boost (turbo) is on: the clock follows temperature and load",
                   pstate ? "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo (root)"
                          : "echo 0 > /sys/devices/system/cpu/cpufreq/boost (root)"});
}

void smt(const os::EnvironmentFacts& f, std::vector<EnvironmentWarning>& out) {
    if (!f.smt_active || !*f.smt_active) return;
    // Pinned (one CPU): keep its sibling idle; not pinned, there is no one sibling to keep idle.
    const std::string sibling = f.cpus.size() == 1
                                    ? "keep the sibling of " + cpus_word(f.cpus) + " idle"
                                    : "--pin, then keep the pinned CPU's sibling idle";
    out.push_back({"smt", "SMT is on: a sibling hardware thread can share the run's core",
                   sibling + ", or echo off > /sys/devices/system/cpu/smt/control"});
}

void placement(const os::EnvironmentFacts& f, std::vector<EnvironmentWarning>& out) {
    if (f.cpus.size() > 1)
        out.push_back(
            {"pinning",
             fmt::format("not pinned: the scheduler may move the run across {}", cpus_word(f.cpus)),
             "--pin=auto (the least busy CPU) or --pin=CPU"});
    if (!f.isolated || f.cpus.empty()) return;
    std::vector<unsigned> shared;
    for (unsigned c : f.cpus)
        if (std::find(f.isolated->begin(), f.isolated->end(), c) == f.isolated->end())
            shared.push_back(c);
    if (shared.empty()) return;
    const std::string list = format_cpu_list(shared);
    out.push_back({"isolation",
                   fmt::format("{} not isolated: other tasks may run there", cpus_word(shared)),
                   fmt::format("boot with isolcpus={} nohz_full={}{}", list, list,
                               f.cpus.size() == 1 ? "" : " and pin the run there")});
}

void load(const os::EnvironmentFacts& f, std::vector<EnvironmentWarning>& out) {
    if (!std::isfinite(f.load.one) || f.load.one < kBusyLoad) return;
    out.push_back({"load",
                   fmt::format("load average {:.2f} at the start: other work competes for the CPUs",
                               f.load.one),
                   "a quieter machine; samples that lost the CPU are left out of the headline, "
                   "rows with too few clean ones are marked ~ dist (disturbed)"});
}

void hypervisor(const os::EnvironmentFacts& f, std::vector<EnvironmentWarning>& out) {
    if (!f.hypervisor) return;
    const std::string who = f.hypervisor_name.empty() ? "" : " (" + f.hypervisor_name + ")";
    // Whether the guest sees a CPU PMU decides which counters exist at all.
    const std::string pmu = !f.cpu_pmu   ? ""
                            : *f.cpu_pmu ? ", which exposes a CPU PMU"
                                         : ", which exposes no CPU PMU (software events only)";
    out.push_back(
        {"hypervisor",
         fmt::format("running under a hypervisor{}{}: other guests can take the CPU", who, pmu),
         "bare metal or dedicated vCPUs; time the hypervisor takes shows as steal (rows marked ~ "
         "steal)"});
}

void nmi_watchdog(const os::EnvironmentFacts& f, std::vector<EnvironmentWarning>& out) {
    if (!f.nmi_watchdog || *f.nmi_watchdog == 0 || !f.cpu_pmu || !*f.cpu_pmu) return;
    out.push_back({"nmi-watchdog", "the NMI watchdog is on: it holds one hardware counter",
                   "sysctl kernel.nmi_watchdog=0 (root)"});
}

void aslr(const os::EnvironmentFacts& f, std::vector<EnvironmentWarning>& out) {
    if (!f.aslr || *f.aslr == 0 || f.no_randomize.value_or(false)) return;  // setarch -R done
    out.push_back({"aslr", "ASLR is on: code and data addresses (and alignment) change run to run",
                   "setarch -R <bench> ... for this run, or sysctl kernel.randomize_va_space=0"});
}

void thp(const os::EnvironmentFacts& f, std::vector<EnvironmentWarning>& out) {
    if (f.thp != "always") return;
    out.push_back(
        {"thp", "transparent huge pages 'always': large buffers get huge pages or not, run to run",
         "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled (root)"});
}

void paranoid(const os::EnvironmentFacts& f, std::vector<EnvironmentWarning>& out) {
    if (f.privileged || !f.perf_event_paranoid || *f.perf_event_paranoid <= 1) return;
    out.push_back(
        {"paranoid",
         fmt::format("kernel.perf_event_paranoid={}: counters cannot see the kernel{}",
                     *f.perf_event_paranoid,
                     *f.perf_event_paranoid >= 3 ? " (3: perf_event is closed to users)" : ""),
         "sysctl kernel.perf_event_paranoid=1, or CAP_PERFMON"});
}

Json load_json(const os::LoadAverage& l) {
    if (!std::isfinite(l.one)) return Json();
    Json a = Json::array();
    for (double v : {l.one, l.five, l.fifteen}) a.push_back(v);
    return a;
}

}  // namespace

std::vector<EnvironmentWarning> check_environment(const os::EnvironmentFacts& facts) {
    if (!facts.known) return {{"unknown", facts.unknown_why, ""}};
    std::vector<EnvironmentWarning> out;
    for (auto check :
         {governor, boost, smt, placement, load, hypervisor, nmi_watchdog, aslr, thp, paranoid})
        check(facts, out);
    return out;
}

std::optional<EnvironmentWarning> check_end_load(const os::LoadAverage& start,
                                                 const os::LoadAverage& end) {
    if (!std::isfinite(end.one) || end.one < kBusyLoad) return std::nullopt;
    if (std::isfinite(start.one) && start.one >= kBusyLoad) return std::nullopt;
    return EnvironmentWarning{
        "load",
        fmt::format("load average rose to {:.2f} during the run: other work "
                    "competed for the CPUs",
                    end.one),
        "a quieter machine; samples that lost the CPU are left out of the headline, rows with too "
        "few clean ones are marked ~ dist (disturbed)"};
}

std::string warning_line(const EnvironmentWarning& w) {
    return "environment: " + w.problem + (w.remedy.empty() ? "" : " — " + w.remedy);
}

Json environment_json(const os::EnvironmentFacts& f, const os::LoadAverage& end,
                      const std::vector<EnvironmentWarning>& warnings, bool quiet) {
    Json e = Json::object();
    e["known"] = f.known;
    if (!f.known) e["unknownReason"] = f.unknown_why;
    e["cpus"] = number_list_json(f.cpus);
    Json governors = Json::object();
    for (const auto& [cpu, g] : f.governors) governors[std::to_string(cpu)] = g;
    e["governors"] = std::move(governors);
    e["boost"] = optional_json(f.boost);
    e["boostSource"] = f.boost_source.empty() ? Json() : Json(f.boost_source);
    e["smtActive"] = optional_json(f.smt_active);
    e["isolatedCpus"] = f.isolated ? number_list_json(*f.isolated) : Json();
    e["nohzFullCpus"] = f.nohz_full ? number_list_json(*f.nohz_full) : Json();
    e["loadAverageStart"] = load_json(f.load);
    e["loadAverageEnd"] = load_json(end);
    e["hypervisor"]["present"] = f.hypervisor;
    e["hypervisor"]["name"] = f.hypervisor_name.empty() ? Json() : Json(f.hypervisor_name);
    e["hypervisor"]["source"] = f.hypervisor_source.empty() ? Json() : Json(f.hypervisor_source);
    e["cpuPmu"] = optional_json(f.cpu_pmu);
    e["nmiWatchdog"] = optional_json(f.nmi_watchdog);
    e["aslr"] = optional_json(f.aslr);
    e["noRandomize"] = optional_json(f.no_randomize);
    e["perfEventParanoid"] = optional_json(f.perf_event_paranoid);
    e["transparentHugePages"] = f.thp.empty() ? Json() : Json(f.thp);
    e["privileged"] = f.privileged;
    Json list = Json::array();
    for (const auto& w : warnings) {
        Json item = Json::object();
        item["check"] = w.check;
        item["problem"] = w.problem;
        item["remedy"] = w.remedy.empty() ? Json() : Json(w.remedy);
        list.push_back(std::move(item));
    }
    e["warnings"] = std::move(list);
    e["quiet"] = quiet;
    return e;
}

}  // namespace glint::engine
