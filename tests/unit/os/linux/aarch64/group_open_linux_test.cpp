// GroupSpec::user_access: what a group open asks the kernel for, on every host. The kernel is
// the fake one behind the sys() seam and the sysfs PMU listing a scratch directory, so the
// arm64 rules (config1 bits on hardware members only, the perf_user_access gate, the 64-bit
// fallback) and the x86 answer (nothing asked, config1 = 0) are both checked here; the real
// arm64 kernel's answers are checked by the QEMU rig (tests/aarch64).
#include <doctest/doctest.h>

#include <linux/perf_event.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

#include "os/linux/aarch64/user_access.hpp"
#include "os/linux/sys.hpp"
#include "os/perf_events.hpp"
#include "support/fake_perf_kernel.hpp"

namespace linux_ = glint::os::linux_;
using glint::os::Event;
using glint::os::GroupSpec;
using glint::os::OpenFailure;
using glint::os::PerfGroup;
using Mode = glint::os::UserAccessGrant::Mode;

namespace {

constexpr const char* kSysctl = "/proc/sys/kernel/perf_user_access";

// A scratch directory laid out like /sys/bus/event_source/devices.
struct Devices {
    std::filesystem::path root;
    explicit Devices(const std::string& tag) {
        root = std::filesystem::temp_directory_path() /
               ("glint_arm64_open_" + tag + "_" + std::to_string(::getpid()));
        std::filesystem::remove_all(root);
        std::filesystem::create_directories(root / "software");
        std::ofstream(root / "software" / "type") << "1\n";
    }
    ~Devices() { std::filesystem::remove_all(root); }
    Devices& add(const std::string& name, const std::string& type) {
        std::filesystem::create_directories(root / name);
        std::ofstream(root / name / "type") << type;
        return *this;
    }
};

GroupSpec user_access_spec(const Devices& devices) {
    GroupSpec spec{{Event::cycles, Event::instructions, Event::page_faults}};
    spec.user_access = true;
    spec.pmu_root = devices.root.string();
    return spec;
}

// Layered over the fake kernel: a PMU without 64-bit event counters refuses config1 bit 0 with
// EOPNOTSUPP, except for cycles (the dedicated 64-bit cycle counter), like the arm64 driver.
const linux_::SysTable* g_below = nullptr;
int open_without_long_events(perf_event_attr* attr, pid_t pid, int cpu, int group_fd,
                             unsigned long flags) {
    if ((attr->config1 & linux_::kArm64Config1Counter64) &&
        !(attr->type == PERF_TYPE_HARDWARE && attr->config == PERF_COUNT_HW_CPU_CYCLES)) {
        errno = EOPNOTSUPP;
        return -1;
    }
    return g_below->perf_event_open(attr, pid, cpu, group_fd, flags);
}

}  // namespace

TEST_CASE("plan_user_access: x86 asks nothing, arm64 asks when perf_user_access is 1") {
    glint::test::FakePerfKernel fake;
    Devices x86("x86");
    x86.add("cpu", "4\n");
    const auto none = linux_::plan_user_access(x86.root.string(), kSysctl);
    CHECK(none.mode == Mode::not_applicable);
    CHECK(none.reason.find("no armv8 core PMU") != std::string::npos);

    Devices arm("arm");
    arm.add("armv8_pmuv3_0", "10\n");
    fake.files[kSysctl] = "1\n";
    const auto granted = linux_::plan_user_access(arm.root.string(), kSysctl);
    CHECK(granted.mode == Mode::requested);
    CHECK(granted.pmu == "armv8_pmuv3_0");

    fake.files[kSysctl] = "0\n";
    const auto off = linux_::plan_user_access(arm.root.string(), kSysctl);
    CHECK(off.mode == Mode::refused);
    CHECK(off.reason.find("perf_user_access is 0") != std::string::npos);
    CHECK(off.remedy == "sysctl kernel.perf_user_access=1");

    fake.files.erase(kSysctl);
    fake.file_errno[kSysctl] = ENOENT;
    const auto old_kernel = linux_::plan_user_access(arm.root.string(), kSysctl);
    CHECK(old_kernel.mode == Mode::refused);
    CHECK(old_kernel.reason.find("5.17") != std::string::npos);
    CHECK(old_kernel.remedy.empty());

    fake.file_errno.clear();
    fake.files[kSysctl] = "1\n";
    arm.add("armv8_cortex_a53", "11\n");
    const auto big_little = linux_::plan_user_access(arm.root.string(), kSysctl);
    CHECK(big_little.mode == Mode::refused);
    CHECK(big_little.reason.find("2 arm64 core PMUs") != std::string::npos);
}

TEST_CASE("arm64 user access: config1 bits 0 and 1 on hardware members only") {
    glint::test::FakePerfKernel fake;
    fake.files[kSysctl] = "1\n";
    Devices arm("bits");
    arm.add("armv8_pmuv3_0", "10\n");
    PerfGroup group;
    OpenFailure failure;
    REQUIRE(group.open(user_access_spec(arm), failure));
    REQUIRE(fake.opened.size() == 3);
    CHECK(fake.opened[0].config1 == 0x3);
    CHECK(fake.opened[1].config1 == 0x3);
    CHECK(fake.opened[2].config1 == 0);  // page-faults: a software event, nothing to ask
    CHECK(fake.opened[0].type == PERF_TYPE_HARDWARE);  // the same events as the syscall path
    const auto& grant = group.user_access();
    CHECK(grant.mode == Mode::requested);
    CHECK(grant.counter64[0]);
    CHECK(grant.counter64[1]);
    CHECK_FALSE(grant.counter64[2]);

    // want_64bit off: bit 1 alone.
    GroupSpec narrow = user_access_spec(arm);
    narrow.want_64bit = false;
    fake.opened.clear();
    REQUIRE(group.open(narrow, failure));
    CHECK(fake.opened[0].config1 == 0x2);
    CHECK(fake.opened[1].config1 == 0x2);
    CHECK_FALSE(group.user_access().counter64[1]);
}

TEST_CASE("arm64 user access: a PMU without 64-bit event counters gets 32-bit ones") {
    glint::test::FakePerfKernel fake;
    fake.files[kSysctl] = "1\n";
    Devices arm("narrow");
    arm.add("armv8_pmuv3_0", "10\n");
    static linux_::SysTable below;
    below = linux_::sys();  // the fake kernel's table
    g_below = &below;
    linux_::SysTable table = below;
    table.perf_event_open = &open_without_long_events;
    const linux_::ScopedSys scoped(table);

    PerfGroup group;
    OpenFailure failure;
    REQUIRE(group.open(user_access_spec(arm), failure));
    const auto& grant = group.user_access();
    CHECK(grant.counter64[0]);  // cycles: the 64-bit cycle counter
    CHECK_FALSE(grant.counter64[1]);
    CHECK(grant.fell_back_to_32[1]);
    REQUIRE(fake.opened.size() == 3);
    CHECK(fake.opened[1].config1 == 0x2);
}

TEST_CASE("user access not asked for: x86, perf_user_access 0, or not requested") {
    glint::test::FakePerfKernel fake;
    PerfGroup group;
    OpenFailure failure;

    Devices x86("x86open");
    x86.add("cpu", "4\n");
    REQUIRE(group.open(user_access_spec(x86), failure));
    for (const perf_event_attr& attr : fake.opened) CHECK(attr.config1 == 0);
    CHECK(group.user_access().mode == Mode::not_applicable);

    Devices arm("off");
    arm.add("armv8_pmuv3_0", "10\n");
    fake.files[kSysctl] = "0\n";
    fake.opened.clear();
    REQUIRE(group.open(user_access_spec(arm), failure));
    for (const perf_event_attr& attr : fake.opened) CHECK(attr.config1 == 0);
    CHECK(group.user_access().mode == Mode::refused);
    CHECK(group.user_access().remedy == "sysctl kernel.perf_user_access=1");

    fake.files[kSysctl] = "1\n";
    GroupSpec plain = user_access_spec(arm);
    plain.user_access = false;
    fake.opened.clear();
    REQUIRE(group.open(plain, failure));
    for (const perf_event_attr& attr : fake.opened) CHECK(attr.config1 == 0);
    CHECK(group.user_access().mode == Mode::not_requested);

    group.close();
    CHECK(group.user_access().mode == Mode::not_requested);
}
