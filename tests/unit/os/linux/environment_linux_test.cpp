// The environment facts from fake sysfs/procfs trees (os/environment.hpp on Linux).
#include <doctest/doctest.h>

#include <sys/personality.h>

#include <cmath>

#include "engine/environment/checks.hpp"
#include "os/environment.hpp"
#include "support/fake_tree.hpp"

using namespace glint::os;
using glint::test::FakeTree;

namespace {

struct FakeMachine {
    FakeTree sys, proc;
    SystemRoots roots() const { return {sys.root(), proc.root()}; }
};

}  // namespace

TEST_CASE("environment: an empty tree knows nothing and guesses nothing") {
    FakeMachine m;
    const EnvironmentFacts f = read_environment(m.roots(), {0, 1});
    CHECK(f.known);
    CHECK(f.cpus == std::vector<unsigned>{0, 1});
    CHECK(f.governors.empty());
    CHECK(!f.boost);
    CHECK(!f.smt_active);
    CHECK(!f.isolated);
    CHECK(!f.nohz_full);
    CHECK(std::isnan(f.load.one));
    CHECK(!f.hypervisor);
    CHECK(!f.cpu_pmu);
    CHECK(!f.nmi_watchdog);
    CHECK(!f.aslr);
    CHECK(!f.perf_event_paranoid);
    CHECK(f.thp.empty());
}

TEST_CASE("environment: the governor of each allowed CPU that has cpufreq") {
    FakeMachine m;
    m.sys.write("devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
    m.sys.write("devices/system/cpu/cpu1/cpufreq/scaling_governor", "performance\n");
    m.sys.write("devices/system/cpu/cpu3/cpufreq/scaling_governor", "schedutil\n");
    const EnvironmentFacts f = read_environment(m.roots(), {3, 0, 2});
    using G = std::vector<std::pair<unsigned, std::string>>;
    CHECK(f.governors == G{{0, "powersave"}, {3, "schedutil"}});  // CPU 1 is not the run's
}

TEST_CASE("environment: boost from cpufreq/boost, else intel_pstate/no_turbo") {
    FakeMachine m;
    m.sys.write("devices/system/cpu/intel_pstate/no_turbo", "0\n");
    EnvironmentFacts f = read_environment(m.roots(), {0});
    REQUIRE(f.boost);
    CHECK(*f.boost);  // no_turbo 0: turbo is on
    CHECK(f.boost_source.find("intel_pstate/no_turbo") != std::string::npos);
    m.sys.write("devices/system/cpu/intel_pstate/no_turbo", "1\n");
    f = read_environment(m.roots(), {0});
    CHECK(!*f.boost);
    m.sys.write("devices/system/cpu/cpufreq/boost", "1\n");  // cpufreq/boost takes precedence
    f = read_environment(m.roots(), {0});
    CHECK(*f.boost);
    CHECK(f.boost_source.find("cpufreq/boost") != std::string::npos);
}

TEST_CASE("environment: SMT, isolated and nohz_full CPUs") {
    FakeMachine m;
    m.sys.write("devices/system/cpu/smt/active", "1\n");
    m.sys.write("devices/system/cpu/isolated", "2-3\n");
    m.sys.write("devices/system/cpu/nohz_full", "(null)\n");
    EnvironmentFacts f = read_environment(m.roots(), {0});
    CHECK(f.smt_active == true);
    CHECK(f.isolated == std::vector<unsigned>{2, 3});
    CHECK(f.nohz_full == std::vector<unsigned>{});  // built in, not in use
    m.sys.write("devices/system/cpu/smt/active", "0\n");
    m.sys.write("devices/system/cpu/isolated", "\n");
    m.sys.write("devices/system/cpu/nohz_full", "3\n");
    f = read_environment(m.roots(), {0});
    CHECK(f.smt_active == false);
    CHECK(f.isolated == std::vector<unsigned>{});
    CHECK(f.nohz_full == std::vector<unsigned>{3});
}

TEST_CASE("environment: the load average") {
    FakeMachine m;
    m.proc.write("loadavg", "1.45 0.80 0.33 2/345 6789\n");
    const LoadAverage load = read_load_average(m.roots());
    CHECK(load.one == doctest::Approx(1.45));
    CHECK(load.five == doctest::Approx(0.80));
    CHECK(load.fifteen == doctest::Approx(0.33));
    CHECK(read_environment(m.roots(), {0}).load.one == doctest::Approx(1.45));
}

TEST_CASE("environment: a hypervisor from sysfs, DMI or the CPU flag, in that order") {
    FakeMachine m;
    m.proc.write("cpuinfo", "processor\t: 0\nflags\t\t: fpu sse2 hypervisor avx\n\n");
    EnvironmentFacts f = read_environment(m.roots(), {0});
    CHECK(f.hypervisor);
    CHECK(f.hypervisor_name.empty());  // the flag names no vendor
    CHECK(f.hypervisor_source.find("cpuinfo") != std::string::npos);
    m.sys.write("class/dmi/id/sys_vendor", "QEMU\n");
    f = read_environment(m.roots(), {0});
    CHECK(f.hypervisor_name == "QEMU");
    m.sys.write("hypervisor/type", "xen\n");
    f = read_environment(m.roots(), {0});
    CHECK(f.hypervisor_name == "xen");
    CHECK(f.hypervisor_source == "/sys/hypervisor/type");
}

TEST_CASE("environment: bare metal reads no hypervisor") {
    FakeMachine m;
    m.proc.write("cpuinfo", "processor\t: 0\nflags\t\t: fpu sse2 avx\n\n");
    m.sys.write("class/dmi/id/sys_vendor", "Dell Inc.\n");
    CHECK(!read_environment(m.roots(), {0}).hypervisor);
}

TEST_CASE("environment: a CPU PMU is exposed or not") {
    FakeMachine m;
    m.sys.write("bus/event_source/devices/software/type", "1\n");
    CHECK(read_environment(m.roots(), {0}).cpu_pmu == false);
    m.sys.write("bus/event_source/devices/cpu/type", "4\n");
    CHECK(read_environment(m.roots(), {0}).cpu_pmu == true);
}

TEST_CASE("environment: NMI watchdog, ASLR, paranoid level and THP") {
    FakeMachine m;
    m.proc.write("sys/kernel/nmi_watchdog", "1\n");
    m.proc.write("sys/kernel/randomize_va_space", "2\n");
    m.proc.write("sys/kernel/perf_event_paranoid", "-1\n");
    m.sys.write("kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
    const EnvironmentFacts f = read_environment(m.roots(), {0});
    CHECK(f.nmi_watchdog == 1);
    CHECK(f.aslr == 2);
    CHECK(f.perf_event_paranoid == -1);
    CHECK(f.thp == "always");
}

TEST_CASE("environment: a process run with ADDR_NO_RANDOMIZE (setarch -R) has no ASLR") {
    FakeMachine m;
    const int before = ::personality(0xffffffff);
    REQUIRE(before != -1);
    ::personality(static_cast<unsigned long>(before) | ADDR_NO_RANDOMIZE);
    const EnvironmentFacts off = read_environment(m.roots(), {0});
    ::personality(static_cast<unsigned long>(before) &
                  ~static_cast<unsigned long>(ADDR_NO_RANDOMIZE));
    const EnvironmentFacts on = read_environment(m.roots(), {0});
    ::personality(static_cast<unsigned long>(before));
    CHECK(off.no_randomize == true);
    CHECK(on.no_randomize == false);
}

TEST_CASE("environment: from a fake tree to the warnings a person reads") {
    FakeMachine m;
    m.sys.write("devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
    m.sys.write("devices/system/cpu/intel_pstate/no_turbo", "0\n");
    m.sys.write("devices/system/cpu/smt/active", "1\n");
    m.sys.write("devices/system/cpu/isolated", "\n");
    m.proc.write("loadavg", "3.20 2.00 1.00 5/300 1234\n");
    m.sys.write("hypervisor/type", "xen\n");
    m.sys.write("bus/event_source/devices/cpu/type", "4\n");
    m.proc.write("sys/kernel/nmi_watchdog", "1\n");
    m.proc.write("sys/kernel/randomize_va_space", "2\n");
    m.sys.write("kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
    m.proc.write("sys/kernel/perf_event_paranoid", "2\n");
    EnvironmentFacts f = read_environment(m.roots(), {0});
    f.privileged = false;
    f.no_randomize = false;  // the process's own personality (a sanitizer may re-exec without ASLR)
    std::vector<std::string> checks;
    for (const auto& w : glint::engine::check_environment(f)) checks.push_back(w.check);
    CHECK(checks == std::vector<std::string>{"governor", "boost", "smt", "isolation", "load",
                                             "hypervisor", "nmi-watchdog", "aslr", "thp",
                                             "paranoid"});
}
