// The syscall tracepoint tier: tracefs lookups, the failures that omit its columns (faked
// behind the sys() seam), and real tracepoints on this kernel (root; tracefs mounted if needed).
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "engine/tiers/syscalls/syscall_tier.hpp"
#include "os/tracefs.hpp"
#include "support/fake_perf_kernel.hpp"
#include "support/temp_dir.hpp"
#include "support/tracefs.hpp"
#include "support/workloads.hpp"

using namespace glint;
using namespace glint::engine;
using Lookup = glint::os::TracepointLookup;
using glint::test::batched;
using glint::test::cell;
using glint::test::descriptor;

namespace {

// A throwaway tracefs-shaped tree: <root>/events/<system>/<name>/id.
struct FakeTracefs {
    std::filesystem::path root;
    FakeTracefs() {
        root = std::filesystem::temp_directory_path() /
               ("glint_tracefs_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
        std::filesystem::create_directories(root / "events");
    }
    ~FakeTracefs() { std::filesystem::remove_all(root); }
    void add(const std::string& system, const std::string& name, const std::string& id) {
        std::filesystem::create_directories(root / "events" / system / name);
        std::ofstream(root / "events" / system / name / "id") << id;
    }
    std::string path(const std::string& system, const std::string& name) const {
        return (root / "events" / system / name / "id").string();
    }
    static int& counter() {
        static int n = 0;
        return n;
    }
};

TierRequest syscall_options(std::vector<std::string> names) {
    TierRequest r;
    r.syscalls = SyscallRequest{true, std::move(names)};
    return r;
}

}  // namespace

TEST_CASE(
    "tracefs: the first root with events/ wins — ids are read, missing and garbage told apart") {
    FakeTracefs t;
    t.add("raw_syscalls", "sys_enter", "21\n");
    t.add("syscalls", "sys_enter_write", "oops\n");
    CHECK(os::find_tracefs({"/nonexistent/glint", t.root.string()}) == t.root.string());
    CHECK(os::find_tracefs({"/nonexistent/glint"}).empty());

    const Lookup enter = os::lookup_tracepoint(t.root.string(), "raw_syscalls", "sys_enter");
    CHECK(enter.outcome == Lookup::Outcome::found);
    CHECK(enter.event.type == os::kTracepointEventType);
    CHECK(enter.event.config == 21);
    CHECK(enter.event.name == "raw_syscalls:sys_enter");
    CHECK(enter.path == t.path("raw_syscalls", "sys_enter"));

    const Lookup missing = os::lookup_tracepoint(t.root.string(), "syscalls", "sys_enter_nosuch");
    CHECK(missing.outcome == Lookup::Outcome::missing);
    CHECK(missing.error == ENOENT);
    CHECK(os::lookup_tracepoint(t.root.string(), "syscalls", "sys_enter_write").outcome ==
          Lookup::Outcome::unreadable);
}

TEST_CASE("syscall tier: no tracefs means unavailable, columns omitted, the reason and the mount") {
    auto tier =
        syscalls::make_syscall_tier({"/nonexistent/glint/tracing", "/nonexistent/glint/debug"});
    CHECK(tier->source() == "syscall");
    const auto before = tier->family();
    REQUIRE(before.size() == 1);
    CHECK(before[0].name == "syscalls");
    CHECK_FALSE(before[0].is_default);

    const auto statuses = tier->open(syscall_options({"write"}));
    REQUIRE(statuses.size() == 1);
    CHECK_FALSE(statuses[0].usable());
    CHECK(statuses[0].reason.find("tracefs is not mounted (neither /nonexistent/glint/tracing nor "
                                  "/nonexistent/glint/debug has events/)") != std::string::npos);
    CHECK(statuses[0].remedy == "mount -t tracefs nodev /sys/kernel/tracing (as root)");
    for (const auto& d : tier->family()) {
        CHECK_FALSE(d.available);
        CHECK_FALSE(d.is_default);  // omitted from the table
        CHECK_FALSE(d.reason.empty());
    }
}

TEST_CASE(
    "syscall tier: unreadable tracepoint ids (not root) make it unavailable with the reason") {
    FakeTracefs t;
    t.add("raw_syscalls", "sys_enter", "21\n");
    glint::test::FakePerfKernel fake;
    fake.file_errno[t.path("raw_syscalls", "sys_enter")] = EACCES;
    auto tier = syscalls::make_syscall_tier({t.root.string()});
    const auto statuses = tier->open(syscall_options({}));
    REQUIRE_FALSE(statuses.empty());
    CHECK_FALSE(statuses[0].usable());
    CHECK(statuses[0].reason.find("is unreadable: EACCES") != std::string::npos);
    CHECK(statuses[0].reason.find("root-only") != std::string::npos);
    CHECK(fake.open_calls == 0);
}

TEST_CASE("syscall tier: a refused tracepoint open names the paranoid level and its remedy") {
    FakeTracefs t;
    t.add("raw_syscalls", "sys_enter", "21\n");
    t.add("syscalls", "sys_enter_write", "600\n");
    glint::test::FakePerfKernel fake;
    fake.refuse_all_errno = EACCES;
    auto tier = syscalls::make_syscall_tier({t.root.string()});
    const auto statuses = tier->open(syscall_options({"write"}));
    REQUIRE_FALSE(statuses.empty());
    CHECK_FALSE(statuses[0].usable());
    CHECK(statuses[0].reason.find("EACCES") != std::string::npos);
    CHECK(statuses[0].reason.find("kernel.perf_event_paranoid=2") != std::string::npos);
    CHECK(statuses[0].reason.find("perf_event_paranoid <= 1 or CAP_PERFMON") != std::string::npos);
    CHECK(statuses[0].remedy.find("sysctl kernel.perf_event_paranoid=1") != std::string::npos);
    CHECK(fake.live_fds() == 0);
}

TEST_CASE(
    "syscall tier: one group, the total leading, inherit on, ids from tracefs — exact counts") {
    FakeTracefs t;
    t.add("raw_syscalls", "sys_enter", "21\n");
    t.add("syscalls", "sys_enter_write", "600\n");
    t.add("syscalls", "sys_enter_futex", "601\n");
    glint::test::FakePerfKernel fake;
    fake.apparatus_count = 1;  // the DISABLE ioctl, seen by every tracepoint here
    auto tier = syscalls::make_syscall_tier({t.root.string()});
    TierRequest o = syscall_options({"write", "nosuch"});
    o.metrics = {"sc:futex"};
    const auto statuses = tier->open(o);
    REQUIRE(statuses.front().usable());
    CHECK(statuses.front().state == Status::State::degraded);  // sc:nosuch has no tracepoint
    REQUIRE(fake.opened.size() == 3);
    CHECK(fake.opened[0].type == PERF_TYPE_TRACEPOINT);
    CHECK(fake.opened[0].config == 21);
    CHECK(fake.opened[1].config == 600);
    CHECK(fake.opened[2].config == 601);
    for (const auto& attr : fake.opened) {
        CHECK(bool(attr.inherit));
        CHECK_FALSE(bool(attr.exclude_kernel));
    }

    const auto family = tier->family();
    REQUIRE(family.size() == 4);
    CHECK(family[0].name == "syscalls");
    CHECK(family[1].name == "sc:write");
    CHECK(family[2].name == "sc:nosuch");
    CHECK(family[3].name == "sc:futex");
    for (const auto& d : family) {
        CHECK(d.cls == catalog::MetricClass::quantitative);
        CHECK(d.is_default);
    }
    CHECK_FALSE(descriptor(family, "sc:nosuch").available);
    CHECK(descriptor(family, "sc:nosuch").reason.find("no tracepoint syscalls:sys_enter_nosuch") !=
          std::string::npos);

    auto body = [&] { fake.work(3); };
    const PassResult r = tier->count(batched(body), PassPlan{400, 40});
    CHECK(cell(r, "syscalls") == 3);
    CHECK(cell(r, "sc:write") == 3);
    CHECK(std::isnan(cell(r, "sc:nosuch")));
}

TEST_CASE("real syscall tier: K write(2) calls per iteration read sc:write = K exactly") {
    const std::string tracefs = glint::test::ensure_tracefs();
    REQUIRE_MESSAGE(!tracefs.empty(),
                    "tracefs is not mounted and could not be mounted (run as root)");
    auto tier = make_syscall_tier();
    const auto statuses = tier->open(syscall_options({"write", "getppid"}));
    REQUIRE_MESSAGE(statuses.front().usable(), statuses.front().reason);
    CHECK(statuses.front().state == Status::State::available);

    glint::test::TempDir dir{"glint-write-sink"};  // writes go to a file of its own, not /dev/null
    const int fd = ::open(dir.file("sink").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    REQUIRE(fd >= 0);
    constexpr int kWrites = 5;
    const char byte = 0;
    auto body = [&] {
        for (int i = 0; i < kWrites; ++i) (void)::write(fd, &byte, 1);
    };
    for (const PassPlan plan : {PassPlan{2000, 200}, PassPlan{300, 1}}) {
        const PassResult r = tier->count(batched(body), plan);
        CHECK(cell(r, "sc:write") == kWrites);
        CHECK(cell(r, "syscalls") >= kWrites);
        CHECK(cell(r, "sc:getppid") == 0);
    }
    auto quiet = [] {};
    const PassResult q = tier->count(batched(quiet), PassPlan{1000, 10});
    CHECK(cell(q, "sc:write") == 0);
    CHECK(cell(q, "syscalls") == 0);  // the bracket's own ioctl is subtracted exactly
    ::close(fd);
}

TEST_CASE("real syscall tier: threads a body starts are counted (inherit)") {
    REQUIRE(!glint::test::ensure_tracefs().empty());
    auto tier = make_syscall_tier();
    REQUIRE(tier->open(syscall_options({"getppid"})).front().usable());
    auto spawn = [] {
        std::thread t([] { (void)::getppid(); });
        t.join();
    };
    const PassResult r = tier->count(batched(spawn), PassPlan{50, 5});
    CHECK(cell(r, "sc:getppid") == 1);
}

TEST_CASE(
    "real syscall tier: under --perf-inherit a thread that existed before the open is counted, not "
    "without") {
    REQUIRE(!glint::test::ensure_tracefs().empty());
    std::atomic<bool> stop{false};
    std::atomic<long> calls{0};
    std::thread caller([&] {  // exists before the tier opens: inherit does not follow it
        while (!stop.load()) {
            (void)::getppid();
            calls.fetch_add(1);
        }
    });
    // Each iteration waits for one more of its calls: at least one per iteration within the pass.
    auto wait_for_a_call = [&] {
        const long seen = calls.load();
        while (calls.load() == seen) std::this_thread::yield();
    };
    for (const bool inherit : {false, true}) {
        CAPTURE(inherit);
        TierRequest request = syscall_options({"getppid"});
        request.perf.inherit = inherit;
        auto tier = make_syscall_tier();
        const auto statuses = tier->open(request);
        REQUIRE_MESSAGE(statuses.front().usable(), statuses.front().reason);
        CHECK((statuses.front().reason.find(", and the threads that existed before the open") !=
               std::string::npos) == inherit);
        const PassResult r = tier->count(batched(wait_for_a_call), PassPlan{40, 1});
        const Json* coverage = r.row_fields.find("threadCoverage");
        if (inherit) {
            CHECK(cell(r, "sc:getppid") >= 1);
            REQUIRE(coverage);
            CHECK(coverage->at("preExisting").as_array().size() >= 1);
        } else {
            CHECK(cell(r, "sc:getppid") == 0);  // the measuring thread calls none
            CHECK_FALSE(coverage);
        }
    }
    stop = true;
    caller.join();
}
