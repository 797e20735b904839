// The environment checks: each problem one warning with its remedy; good or unknown facts none.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "engine/environment/checks.hpp"

using namespace glint::engine;
using glint::os::EnvironmentFacts;

namespace {

// A machine with nothing to warn about: one isolated CPU, performance governor, no boost, no
// SMT, idle, bare metal, no watchdog, no ASLR, THP madvise, a privileged run.
EnvironmentFacts quiet_machine() {
    EnvironmentFacts f;
    f.known = true;
    f.cpus = {3};
    f.governors = {{3, "performance"}};
    f.boost = false;
    f.boost_source = "/sys/devices/system/cpu/cpufreq/boost";
    f.smt_active = false;
    f.isolated = std::vector<unsigned>{2, 3};
    f.nohz_full = std::vector<unsigned>{2, 3};
    f.load = {0.05, 0.1, 0.1};
    f.cpu_pmu = true;
    f.nmi_watchdog = 0;
    f.aslr = 0;
    f.perf_event_paranoid = 2;
    f.thp = "madvise";
    f.privileged = true;
    return f;
}

// The one warning of `check`, or a failure.
EnvironmentWarning only(const EnvironmentFacts& f, const std::string& check) {
    const auto warnings = check_environment(f);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].check == check);
    CHECK(!warnings[0].remedy.empty());
    return warnings[0];
}

}  // namespace

TEST_CASE("environment checks: a tuned, idle, bare-metal machine has nothing to warn about") {
    CHECK(check_environment(quiet_machine()).empty());
    EnvironmentFacts unknown;  // unknown facts are never problems
    unknown.known = true;
    unknown.cpus = {0};
    CHECK(check_environment(unknown).empty());
}

TEST_CASE("environment checks: a governor other than performance, grouped by governor") {
    EnvironmentFacts f = quiet_machine();
    f.cpus = {0, 1, 3};
    f.isolated = std::vector<unsigned>{0, 1, 3};
    f.governors = {{0, "powersave"}, {1, "powersave"}, {3, "performance"}};
    const auto warnings = check_environment(f);
    REQUIRE(warnings.size() == 2);
    CHECK(warnings[0].check == "governor");
    CHECK(warning_line(warnings[0]) ==
          "environment: cpufreq governor 'powersave' on CPUs 0-1: the clock follows the load — "
          "cpupower frequency-set -g performance (root)");
    CHECK(warnings[1].check == "pinning");
}

TEST_CASE("environment checks: boost on, with the remedy for its driver") {
    EnvironmentFacts f = quiet_machine();
    f.boost = true;
    CHECK(only(f, "boost").remedy == "echo 0 > /sys/devices/system/cpu/cpufreq/boost (root)");
    f.boost_source = "/sys/devices/system/cpu/intel_pstate/no_turbo";
    CHECK(only(f, "boost").remedy ==
          "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo (root)");
}

TEST_CASE("environment checks: SMT on, with the remedy for a pinned run and for one that is not") {
    EnvironmentFacts f = quiet_machine();
    f.smt_active = true;
    CHECK(only(f, "smt").problem ==
          "SMT is on: a sibling hardware thread can share the run's core");
    CHECK(only(f, "smt").remedy ==
          "keep the sibling of CPU 3 idle, or echo off > /sys/devices/system/cpu/smt/control");
    f.cpus = {2, 3};
    const auto unpinned = check_environment(f);
    CHECK(std::any_of(unpinned.begin(), unpinned.end(), [](const auto& w) {
        return w.check == "smt" &&
               w.remedy.starts_with("--pin, then keep the pinned CPU's sibling idle, or echo off");
    }));
}

TEST_CASE("environment checks: an unpinned run, and run CPUs that are not isolated") {
    EnvironmentFacts f = quiet_machine();
    f.isolated = std::vector<unsigned>{};
    // Pinned already (one CPU): the remedy does not say to pin.
    CHECK(warning_line(only(f, "isolation")) ==
          "environment: CPU 3 not isolated: other tasks may run there — boot with isolcpus=3 "
          "nohz_full=3");
    f.cpus = {2, 3};
    const auto unpinned = check_environment(f);
    CHECK(std::any_of(unpinned.begin(), unpinned.end(), [](const auto& w) {
        return w.check == "isolation" &&
               w.remedy == "boot with isolcpus=2-3 nohz_full=2-3 and pin the run there";
    }));
    f.cpus = {3};
    f.isolated.reset();  // the kernel does not say: no isolation warning
    f.cpus = {0, 1, 2, 3};
    CHECK(only(f, "pinning").problem ==
          "not pinned: the scheduler may move the run across CPUs 0-3");
}

TEST_CASE("environment checks: a busy machine at the start, and load that rose by the end") {
    EnvironmentFacts f = quiet_machine();
    f.load.one = 1.0;
    CHECK(only(f, "load").problem ==
          "load average 1.00 at the start: other work competes for the CPUs");
    f.load.one = 0.99;
    CHECK(check_environment(f).empty());
    const auto rose = check_end_load(f.load, {2.5, 1, 1});
    REQUIRE(rose);
    CHECK(rose->problem ==
          "load average rose to 2.50 during the run: other work competed for the CPUs");
    CHECK(!check_end_load(f.load, {0.5, 1, 1}));
    CHECK(!check_end_load({1.5, 1, 1}, {2.5, 1, 1}));  // the start already said so
}

TEST_CASE("environment checks: a hypervisor, named when a source names it, with its PMU") {
    EnvironmentFacts f = quiet_machine();
    f.hypervisor = true;
    f.cpu_pmu.reset();
    CHECK(only(f, "hypervisor").problem ==
          "running under a hypervisor: other guests can take the CPU");
    f.hypervisor_name = "KVM";
    CHECK(only(f, "hypervisor").problem ==
          "running under a hypervisor (KVM): other guests can take the CPU");
    f.cpu_pmu = false;
    CHECK(
        only(f, "hypervisor").problem ==
        "running under a hypervisor (KVM), which exposes no CPU PMU (software events only): other "
        "guests can take the CPU");
    f.cpu_pmu = true;
    CHECK(
        only(f, "hypervisor").problem ==
        "running under a hypervisor (KVM), which exposes a CPU PMU: other guests can take the CPU");
}

TEST_CASE("environment checks: the NMI watchdog matters only where a CPU PMU exists") {
    EnvironmentFacts f = quiet_machine();
    f.nmi_watchdog = 1;
    CHECK(only(f, "nmi-watchdog").remedy == "sysctl kernel.nmi_watchdog=0 (root)");
    f.cpu_pmu = false;
    CHECK(check_environment(f).empty());
}

TEST_CASE("environment checks: ASLR, THP always, and a paranoid kernel for an unprivileged run") {
    EnvironmentFacts f = quiet_machine();
    f.aslr = 2;
    CHECK(only(f, "aslr").remedy ==
          "setarch -R <bench> ... for this run, or sysctl kernel.randomize_va_space=0");
    f.no_randomize = false;
    only(f, "aslr");
    f.no_randomize = true;  // run under setarch -R: the remedy is applied, nothing to say
    CHECK(check_environment(f).empty());
    f = quiet_machine();
    f.thp = "always";
    only(f, "thp");
    f = quiet_machine();
    f.privileged = false;
    f.perf_event_paranoid = 3;
    CHECK(only(f, "paranoid").problem ==
          "kernel.perf_event_paranoid=3: counters cannot see the kernel (3: perf_event is closed "
          "to users)");
    f.perf_event_paranoid = 1;
    CHECK(check_environment(f).empty());
}

TEST_CASE("environment checks: an OS without a back end is one 'unknown' line") {
    EnvironmentFacts f;
    f.unknown_why = "no back end";
    const auto warnings = check_environment(f);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].check == "unknown");
    CHECK(warning_line(warnings[0]) == "environment: no back end");
}

TEST_CASE("environment checks: JSON keeps every fact, null when unknown, and the warnings") {
    EnvironmentFacts f = quiet_machine();
    f.aslr = 2;
    const auto warnings = check_environment(f);
    const Json j = environment_json(f, {0.2, 0.1, 0.0}, warnings, true);
    CHECK(j.at("known").as_bool());
    CHECK(j.at("governors").at("3").as_string() == "performance");
    CHECK(j.at("isolatedCpus").as_array().size() == 2);
    CHECK(j.at("loadAverageStart").as_array()[0].as_number() == 0.05);
    CHECK(j.at("loadAverageEnd").as_array()[0].as_number() == 0.2);
    CHECK(j.at("hypervisor").at("present").as_bool() == false);
    CHECK(j.at("hypervisor").at("name").is_null());
    CHECK(j.at("aslr").as_number() == 2);
    CHECK(j.at("noRandomize").is_null());
    CHECK(j.at("quiet").as_bool());
    REQUIRE(j.at("warnings").as_array().size() == 1);
    CHECK(j.at("warnings").as_array()[0].at("check").as_string() == "aslr");
    EnvironmentFacts unknown;
    unknown.known = true;
    const Json u = environment_json(unknown, {}, {}, false);
    CHECK(u.at("boost").is_null());
    CHECK(u.at("smtActive").is_null());
    CHECK(u.at("loadAverageEnd").is_null());
    CHECK(u.at("transparentHugePages").is_null());
}
