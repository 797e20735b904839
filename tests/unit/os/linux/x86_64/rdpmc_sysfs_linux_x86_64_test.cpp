// Reading /sys/bus/event_source/devices/*/rdpmc from a fake sysfs tree.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "os/linux/sys.hpp"
#include "os/linux/x86_64/rdpmc_sysfs.hpp"

namespace linux_ = glint::os::linux_;
namespace fs = std::filesystem;

namespace {

struct FakeSysfs {
    std::string root;
    FakeSysfs() {
        char templ[] = "/tmp/glint-rdpmc-XXXXXX";
        REQUIRE(mkdtemp(templ) != nullptr);
        root = templ;
    }
    ~FakeSysfs() { fs::remove_all(root); }
    void pmu(const std::string& name, const char* rdpmc = nullptr) {
        const fs::path dir = fs::path(root) / "bus/event_source/devices" / name;
        fs::create_directories(dir);
        std::ofstream(dir / "type") << "4\n";
        if (rdpmc != nullptr) std::ofstream(dir / "rdpmc") << rdpmc;
    }
};

}  // namespace

TEST_CASE("rdpmc sysfs: the one cpu PMU of a non-hybrid part") {
    FakeSysfs sysfs;
    sysfs.pmu("cpu", "1\n");
    sysfs.pmu("software");
    sysfs.pmu("tracepoint");
    const auto settings = linux_::read_rdpmc_settings(sysfs.root);
    REQUIRE(settings.size() == 1);
    CHECK(settings[0].pmu == "cpu");
    CHECK(settings[0].value == 1);
    CHECK(settings[0].error.empty());
    CHECK(linux_::describe_rdpmc(settings, sysfs.root) ==
          "cpu/rdpmc=1 (user rdpmc allowed while the process has a perf event mmapped)");
}

TEST_CASE("rdpmc sysfs: hybrid parts have one file per core PMU and no cpu/") {
    FakeSysfs sysfs;
    sysfs.pmu("cpu_core", "2\n");
    sysfs.pmu("cpu_atom", "2\n");
    sysfs.pmu("software");
    auto settings = linux_::read_rdpmc_settings(sysfs.root);
    REQUIRE(settings.size() == 2);
    CHECK(settings[0].pmu == "cpu_atom");
    CHECK(settings[1].pmu == "cpu_core");
    CHECK(linux_::describe_rdpmc(settings, sysfs.root) ==
          "cpu_atom/rdpmc=2, cpu_core/rdpmc=2 (user rdpmc allowed for every process)");

    sysfs.pmu("cpu_core", "0\n");  // disagreeing values are each explained
    settings = linux_::read_rdpmc_settings(sysfs.root);
    CHECK(linux_::describe_rdpmc(settings, sysfs.root) ==
          "cpu_atom/rdpmc=2, cpu_core/rdpmc=0 (cpu_atom: user rdpmc allowed for every process; "
          "cpu_core: user rdpmc disabled for every process)");
}

TEST_CASE("rdpmc sysfs: no core PMU (a VM without a virtual PMU)") {
    FakeSysfs sysfs;
    sysfs.pmu("software");
    sysfs.pmu("breakpoint");
    const auto settings = linux_::read_rdpmc_settings(sysfs.root);
    CHECK(settings.empty());
    CHECK(linux_::describe_rdpmc(settings, sysfs.root) ==
          "no rdpmc file in " + sysfs.root + "/bus/event_source/devices (no x86 core PMU exposed)");
    CHECK(linux_::read_rdpmc_settings(sysfs.root + "/absent").empty());
}

TEST_CASE("rdpmc sysfs: unreadable or unexpected files say so") {
    FakeSysfs sysfs;
    sysfs.pmu("cpu", "yes\n");
    auto settings = linux_::read_rdpmc_settings(sysfs.root);
    REQUIRE(settings.size() == 1);
    CHECK(settings[0].value == -1);
    CHECK(settings[0].error == "unexpected content in " + settings[0].path);

    linux_::SysTable table = linux_::real_sys();
    table.open = [](const char*, int, int) -> int {
        errno = EACCES;
        return -1;
    };
    {
        linux_::ScopedSys scoped(table);
        settings = linux_::read_rdpmc_settings(sysfs.root);
    }
    REQUIRE(settings.size() == 1);
    CHECK(settings[0].value == -1);
    CHECK(settings[0].error == "cannot read " + settings[0].path + ": " + std::strerror(EACCES));
    CHECK(linux_::describe_rdpmc(settings, sysfs.root) ==
          "cpu/rdpmc=? (not readable: cannot read " + settings[0].path + ": " +
              std::strerror(EACCES) + ")");
}

TEST_CASE("rdpmc sysfs: this host, read and reported") {
    const auto settings = linux_::read_rdpmc_settings();
    const std::string line = linux_::describe_rdpmc(settings);
    MESSAGE(line);
    // Every rdpmc file of this host, listed and read here on its own (reads only), in PMU order.
    const fs::path devices = "/sys/bus/event_source/devices";
    std::vector<std::pair<std::string, std::string>> files;  // PMU, content
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(devices, ec)) {
        if (!fs::exists(e.path() / "rdpmc")) continue;
        std::ifstream in(e.path() / "rdpmc");
        std::string text;
        std::getline(in, text);
        files.emplace_back(e.path().filename().string(), in ? text : "");
    }
    std::sort(files.begin(), files.end());
    REQUIRE(settings.size() == files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        CAPTURE(files[i].first);
        CHECK(settings[i].pmu == files[i].first);
        CHECK(settings[i].path == (devices / files[i].first / "rdpmc").string());
        if (settings[i].error.empty()) {
            CHECK(std::to_string(settings[i].value) == files[i].second);
            CHECK(line.find(files[i].first + "/rdpmc=" + files[i].second) != std::string::npos);
        } else {
            CHECK(settings[i].value == -1);
        }
    }
    if (files.empty())
        CHECK(line == "no rdpmc file in /sys/bus/event_source/devices (no x86 core PMU exposed)");
}
