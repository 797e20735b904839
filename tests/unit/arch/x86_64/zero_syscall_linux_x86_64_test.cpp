// On the real kernel: a batch of rdpmc-path brackets makes no read/ioctl system calls.
//
// The kernel's own syscall tracepoints count this thread's system calls around the batch
// (raw_syscalls:sys_enter for all of them, syscalls:sys_enter_<name> by name). rdpmc is
// emulated here (no PMU in these VMs), and each emulated trap returns through rt_sigreturn,
// itself a system call: the test accounts for those by name. Needs root (or
// perf_event_paranoid <= 1 and a readable tracefs); tracefs is mounted when absent.
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "os/linux/sys.hpp"
#include "support/skip.hpp"
#include "support/stub_rig.hpp"
#include "support/tracefs.hpp"

namespace x86 = glint::arch::x86_64;
namespace linux_ = glint::os::linux_;
using glint::test::EmulatedPmu;
using glint::test::SimBody;

namespace {

// The id of tracepoint <group>/<name>, or -1.
long tracepoint_id(const std::string& group, const std::string& name) {
    for (const char* root : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
        std::string text;
        if (linux_::read_small_file(std::string(root) + "/events/" + group + "/" + name + "/id",
                                    text)) {
            return std::stol(text);
        }
    }
    return -1;
}

// tracefs (mounted by the shared helper when absent and root) with the syscall tracepoints.
bool syscall_tracepoints() {
    glint::test::ensure_tracefs();
    return tracepoint_id("raw_syscalls", "sys_enter") >= 0;
}

// A group of syscall tracepoints on this thread, enabled and disabled with prctl (whose
// enabling call is not seen; the disabling one counts once in raw_syscalls:sys_enter).
class SyscallCounts {
  public:
    bool open() {
        const char* names[][2] = {{"raw_syscalls", "sys_enter"},
                                  {"syscalls", "sys_enter_read"},
                                  {"syscalls", "sys_enter_ioctl"},
                                  {"syscalls", "sys_enter_rt_sigreturn"}};
        for (auto& n : names) {
            const long id = tracepoint_id(n[0], n[1]);
            if (id < 0) return fail(std::string("no tracepoint ") + n[0] + ":" + n[1]);
            perf_event_attr attr{};
            attr.size = sizeof attr;
            attr.type = PERF_TYPE_TRACEPOINT;
            attr.config = static_cast<std::uint64_t>(id);
            attr.disabled = 1;
            attr.read_format = PERF_FORMAT_GROUP;
            const int group = fds_.empty() ? -1 : fds_.front();
            const int fd = linux_::sys().perf_event_open(&attr, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
            if (fd < 0) return fail(std::string("perf_event_open: ") + std::strerror(errno));
            fds_.push_back(fd);
        }
        return true;
    }
    ~SyscallCounts() {
        for (int fd : fds_) close(fd);
    }
    void enable() { prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0); }
    void disable() { prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0); }
    struct Counts {
        std::uint64_t all = 0, read = 0, ioctl = 0, rt_sigreturn = 0;
    };
    Counts read_counts() {
        std::uint64_t buf[1 + 4] = {};
        REQUIRE(linux_::read_retry(fds_.front(), buf, sizeof buf) == sizeof buf);
        REQUIRE(buf[0] == 4);
        return {buf[1], buf[2], buf[3], buf[4]};
    }
    std::string why;

  private:
    bool fail(std::string reason) {
        why = std::move(reason);
        return false;
    }
    std::vector<int> fds_;
};

void read_dev_zero(void* ctx, std::uint64_t n) {  // a body that makes n read(2) calls
    const int fd = *static_cast<int*>(ctx);
    char c;
    for (std::uint64_t i = 0; i < n; ++i) REQUIRE(read(fd, &c, 1) == 1);
}

std::int64_t slow_read_with_syscall(void* ctx, std::uint32_t) {  // a read(2)-served slow path
    const int fd = *static_cast<int*>(ctx);
    char c;
    return read(fd, &c, 1);
}

}  // namespace

TEST_CASE("zero syscalls: a batch of rdpmc-path brackets makes no read or ioctl calls") {
    if (!syscall_tracepoints())
        return glint::test::skip("tracefs with syscall tracepoints is not available (needs root)");
    SyscallCounts counts;
    if (!counts.open())
        return glint::test::skip("syscall tracepoints cannot be counted here: " + counts.why);
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    for (std::uint32_t c = 0; c < 6; ++c) pmu.add_event(c, (std::uint64_t{1} << 48) - 1000);
    SimBody body;
    body.pmu = &pmu;
    for (int e = 0; e < 6; ++e) body.per_iteration[e] = e + 1;
    auto stub = glint::test::must_emit(
        x86::emit_bracket_stub(pmu.layout({0, 1, 2, 3, 4, 5}), x86::CallBody{}));
    std::vector<x86::BracketRecord> records(40);

    const std::uint64_t traps_before = pmu.traps();
    counts.enable();
    for (auto& r : records) (*stub)(&SimBody::run, &body, 10, &r);
    counts.disable();
    const auto c = counts.read_counts();
    const std::uint64_t traps = pmu.traps() - traps_before;

    CHECK(traps == 40 * 12);
    CHECK(c.read == 0);
    CHECK(c.ioctl == 0);
    CHECK(c.rt_sigreturn == traps);  // one per emulated rdpmc: the emulation's, not the stub's
    CHECK(c.all == traps + 1);       // + the disabling prctl: nothing else at all
    for (const auto& r : records) CHECK(r.counts[5] == 60);
}

TEST_CASE("zero syscalls: the counting sees read(2) when there is one (controls)") {
    if (!syscall_tracepoints())
        return glint::test::skip("tracefs with syscall tracepoints is not available (needs root)");
    SyscallCounts counts;
    if (!counts.open())
        return glint::test::skip("syscall tracepoints cannot be counted here: " + counts.why);
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e = pmu.add_event(0);
    int zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
    REQUIRE(zero >= 0);

    SUBCASE("a body that reads") {
        auto stub =
            glint::test::must_emit(x86::emit_bracket_stub(pmu.layout({e}), x86::CallBody{}));
        x86::BracketRecord r;
        counts.enable();
        (*stub)(&read_dev_zero, &zero, 7, &r);
        counts.disable();
        const auto c = counts.read_counts();
        CHECK(c.read == 7);
        CHECK(c.all == 7 + 2 + 1);  // the reads, two traps' rt_sigreturn, the prctl
    }
    SUBCASE("a counter the page does not grant: the slow path's read(2) shows") {
        x86::StubLayout layout = pmu.layout({e});
        layout.slow_read = &slow_read_with_syscall;
        layout.slow_context = &zero;
        auto stub = glint::test::must_emit(x86::emit_bracket_stub(layout, x86::CallBody{}));
        pmu.deschedule(e);
        x86::BracketRecord r;
        counts.enable();
        (*stub)(&glint::test::empty_body, nullptr, 1, &r);
        counts.disable();
        const auto c = counts.read_counts();
        CHECK(r.slow_reads == 2);
        CHECK(c.read == 2);
        CHECK(c.rt_sigreturn == 0);
    }
    close(zero);
}
