// os/linux/arm64_user_access: the arm64 open rules, on every host (the syscall seam stands in for
// the kernel; the real kernel's answers are checked by the arm64 QEMU rig, tests/aarch64).
#include <doctest/doctest.h>

#include <linux/perf_event.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "os/linux/aarch64/user_access.hpp"
#include "os/linux/sys.hpp"

namespace linux_ = glint::os::linux_;

namespace {

// A perf_event_open that records each attr.config1 and answers from a script.
struct OpenScript {
    static inline std::vector<std::uint64_t> config1s;
    static inline bool refuse_64bit = false;  // EOPNOTSUPP when config1 bit 0 is set
    static inline int other_error = 0;        // any other errno for every call
    static int open(perf_event_attr* attr, pid_t, int, int, unsigned long) {
        config1s.push_back(attr->config1);
        if (other_error != 0) {
            errno = other_error;
            return -1;
        }
        if (refuse_64bit && (attr->config1 & linux_::kArm64Config1Counter64)) {
            errno = EOPNOTSUPP;
            return -1;
        }
        return 42;
    }
    static void reset(bool refuse, int error) {
        config1s.clear();
        refuse_64bit = refuse;
        other_error = error;
    }
};

linux_::SysTable scripted_table() {
    linux_::SysTable t = linux_::real_sys();
    t.perf_event_open = &OpenScript::open;
    return t;
}

perf_event_attr attr_with_config1(std::uint64_t config1) {
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.config1 = config1;
    return attr;
}

// A scratch directory laid out like /sys/bus/event_source/devices.
struct FakeDevices {
    std::filesystem::path root;
    FakeDevices() {
        root = std::filesystem::temp_directory_path() /
               ("glint_arm64_devices_" + std::to_string(::getpid()));
        std::filesystem::remove_all(root);
        std::filesystem::create_directories(root);
    }
    ~FakeDevices() { std::filesystem::remove_all(root); }
    void add(const std::string& name, const std::string& type) {
        std::filesystem::create_directories(root / name);
        if (!type.empty()) std::ofstream(root / name / "type") << type;
    }
};

}  // namespace

TEST_CASE("perf_user_access: parsed, and 0 means the syscall path with the sysctl as remedy") {
    CHECK(linux_::parse_sysctl_int("1\n") == 1);
    CHECK(linux_::parse_sysctl_int("0") == 0);
    CHECK(linux_::parse_sysctl_int("") == -1);
    CHECK(linux_::parse_sysctl_int("x1\n") == -1);

    CHECK(linux_::decide_user_access({1, 0}).allowed);
    const linux_::UserAccessDecision off = linux_::decide_user_access({0, 0});
    CHECK_FALSE(off.allowed);
    CHECK(off.reason.find("perf_user_access is 0") != std::string::npos);
    CHECK(off.remedy == "sysctl kernel.perf_user_access=1");
    const linux_::UserAccessDecision absent = linux_::decide_user_access({-1, ENOENT});
    CHECK_FALSE(absent.allowed);
    CHECK(absent.reason.find("no kernel.perf_user_access") != std::string::npos);
    CHECK(absent.remedy.empty());
}

TEST_CASE("perf_user_access is read through the syscall seam") {
    FakeDevices dir;  // reuse the scratch directory for a fake sysctl file
    const std::string path = (dir.root / "perf_user_access").string();
    std::ofstream(path) << "1\n";
    CHECK(linux_::read_perf_user_access(path.c_str()).value == 1);
    const linux_::UserAccessSysctl missing =
        linux_::read_perf_user_access((dir.root / "absent").string().c_str());
    CHECK(missing.value == -1);
    CHECK(missing.error == ENOENT);
}

TEST_CASE("the armv8 PMU type comes from sysfs, armv8_pmuv3* first") {
    CHECK(linux_::armv8_pmu_candidates(
              {"software", "armv8_cortex_a53", "armv8_pmuv3_0", "breakpoint"}) ==
          std::vector<std::string>{"armv8_pmuv3_0", "armv8_cortex_a53"});
    CHECK(linux_::armv8_pmu_candidates({"cpu", "software"}).empty());

    FakeDevices devices;
    devices.add("software", "1");
    const linux_::Armv8Pmu none = linux_::find_armv8_pmu(devices.root.string());
    CHECK_FALSE(none.found);
    CHECK(none.reason.find("no armv8 core PMU") != std::string::npos);

    devices.add("armv8_pmuv3_0", "10\n");
    const linux_::Armv8Pmu pmu = linux_::find_armv8_pmu(devices.root.string());
    REQUIRE(pmu.found);
    CHECK(pmu.name == "armv8_pmuv3_0");
    CHECK(pmu.type == 10);
    CHECK(pmu.candidates == 1);
}

TEST_CASE("user access sets config1 bit 1 and keeps the caller's other bits") {
    const linux_::SysTable table = scripted_table();
    const linux_::ScopedSys scoped(table);
    OpenScript::reset(false, 0);
    const linux_::UserAccessOpen o =
        linux_::open_user_access_event(attr_with_config1(0x10), 0, -1, -1, 0, false);
    CHECK(o.fd == 42);
    CHECK_FALSE(o.counter64);
    REQUIRE(OpenScript::config1s.size() == 1);
    CHECK(OpenScript::config1s[0] == (0x10 | linux_::kArm64Config1UserAccess));
}

TEST_CASE("a 64-bit counter is asked for with bit 0, and EOPNOTSUPP falls back to 32-bit") {
    const linux_::SysTable table = scripted_table();
    const linux_::ScopedSys scoped(table);

    OpenScript::reset(false, 0);
    const linux_::UserAccessOpen granted =
        linux_::open_user_access_event(attr_with_config1(0), 0, -1, -1, 0, true);
    CHECK(granted.fd == 42);
    CHECK(granted.counter64);
    CHECK_FALSE(granted.fell_back_to_32);
    CHECK(OpenScript::config1s == std::vector<std::uint64_t>{0x3});

    OpenScript::reset(true, 0);
    const linux_::UserAccessOpen refused =
        linux_::open_user_access_event(attr_with_config1(0), 0, -1, -1, 0, true);
    CHECK(refused.fd == 42);
    CHECK_FALSE(refused.counter64);
    CHECK(refused.fell_back_to_32);
    CHECK(OpenScript::config1s == std::vector<std::uint64_t>{0x3, 0x2});

    // Any other refusal is the caller's to report: no second attempt.
    OpenScript::reset(false, EACCES);
    const linux_::UserAccessOpen denied =
        linux_::open_user_access_event(attr_with_config1(0), 0, -1, -1, 0, true);
    CHECK(denied.fd < 0);
    CHECK(denied.error == EACCES);
    CHECK_FALSE(denied.fell_back_to_32);
    CHECK(OpenScript::config1s.size() == 1);
}

TEST_CASE("a group's layout: cycle counter first, then event counters 1..M, one event width") {
    const auto layout = [](std::vector<std::uint32_t> indices, std::vector<unsigned> widths) {
        return linux_::arm64_layout_of(indices.data(), widths.data(), indices.size(), 8);
    };
    const linux_::Arm64Layout ci = layout({32, 1}, {64, 64});
    CHECK(ci.specialised);
    CHECK(ci.cycles_first);
    CHECK(ci.cycles_width == 64);
    CHECK(ci.events == 1);
    CHECK(ci.event_width == 64);

    const linux_::Arm64Layout mixed = layout({32, 1, 2}, {64, 32, 32});  // neoverse-n1
    CHECK(mixed.specialised);
    CHECK(mixed.event_width == 32);

    const linux_::Arm64Layout events = layout({1, 2, 3}, {32, 32, 32});
    CHECK(events.specialised);
    CHECK_FALSE(events.cycles_first);
    CHECK(events.events == 3);

    CHECK(layout({32}, {64}).specialised);
    CHECK_FALSE(layout({32, 2}, {64, 64}).specialised);         // not 1..M
    CHECK_FALSE(layout({1, 32}, {64, 64}).specialised);         // cycles not first
    CHECK_FALSE(layout({32, 1, 0}, {64, 64, 64}).specialised);  // one not on a counter
    CHECK_FALSE(layout({32, 1, 2}, {64, 64, 32}).specialised);  // event widths differ
    CHECK_FALSE(layout({32, 1}, {64, 48}).specialised);
    CHECK_FALSE(layout({}, {}).specialised);
    std::vector<std::uint32_t> nine = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    std::vector<unsigned> widths(9, 64);
    CHECK_FALSE(linux_::arm64_layout_of(nine.data(), widths.data(), 9, 8).specialised);
}
