// /proc/self/io parsing, the snapshot's own-read accounting, and tier 0 for real on this kernel.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/tiers/tier0/tier0_tier.hpp"
#include "os/linux/proc_io.hpp"
#include "os/linux/sys.hpp"
#include "os/process_counters.hpp"
#include "support/fake_perf_kernel.hpp"
#include "support/temp_dir.hpp"
#include "support/workloads.hpp"

using namespace glint;
using namespace glint::engine;
using glint::os::ProcessCounter;
using glint::os::ProcessSnapshot;
using glint::test::batched;
using glint::test::cell;

namespace {

std::uint64_t value(const ProcessSnapshot& s, ProcessCounter c) { return s.value(c); }

int failing_getrusage(int, rusage*) {
    errno = EINVAL;
    return -1;
}

constexpr const char* kIoText =
    "rchar: 100\nwchar: 0\nsyscr: 5\nsyscw: 0\nread_bytes: 0\nwrite_bytes: 0\n";

// pread(2) and open(2) of /proc/self/io observed on top of a FakePerfKernel, which serves the
// file's content through its own open/read.
struct ProcIoSeam {
    static ProcIoSeam* current;
    os::linux_::SysTable table;
    const os::linux_::SysTable* below;
    int opens = 0;
    int preads = 0;
    int offsets_nonzero = 0;
    int fail_next = 0;
    std::optional<os::linux_::ScopedSys> scope;

    ProcIoSeam() : table(os::linux_::sys()), below(&os::linux_::sys()) {
        current = this;
        table.open = [](const char* path, int flags, int mode) {
            if (std::string(path) == "/proc/self/io") ++current->opens;
            return current->below->open(path, flags, mode);
        };
        table.pread = [](int fd, void* buf, std::size_t count, off_t offset) -> ssize_t {
            ++current->preads;
            if (offset != 0) ++current->offsets_nonzero;
            if (current->fail_next) {
                errno = std::exchange(current->fail_next, 0);
                return -1;
            }
            const std::string text = kIoText;  // the fake's fds do not seek: serve by offset
            (void)fd;
            const std::size_t at = std::min(text.size(), static_cast<std::size_t>(offset));
            const std::size_t n = std::min(count, text.size() - at);
            std::memcpy(buf, text.data() + at, n);
            return static_cast<ssize_t>(n);
        };
        scope.emplace(table);
    }
    ~ProcIoSeam() { current = nullptr; }
};
ProcIoSeam* ProcIoSeam::current = nullptr;

}  // namespace

TEST_CASE("proc io: every field of /proc/<pid>/io is parsed, unknown and malformed lines skipped") {
    ProcessSnapshot s;
    const int filled = os::linux_::parse_proc_io(
        "rchar: 4242\nwchar: 17\nsyscr: 9\nsyscw: 3\nread_bytes: 8192\nwrite_bytes: 0\n"
        "cancelled_write_bytes: 0\nbogus line\nsyscw: x\n",
        s);
    CHECK(filled == 6);
    CHECK(value(s, ProcessCounter::rchar) == 4242);
    CHECK(value(s, ProcessCounter::wchar) == 17);
    CHECK(value(s, ProcessCounter::syscr) == 9);
    CHECK(value(s, ProcessCounter::syscw) == 3);
    CHECK(value(s, ProcessCounter::read_bytes) == 8192);
    CHECK(s.has(ProcessCounter::write_bytes));
    CHECK_FALSE(s.has(ProcessCounter::minflt));  // not an io field

    ProcessSnapshot partial;  // a kernel without CONFIG_TASK_IO_ACCOUNTING's byte counts
    CHECK(os::linux_::parse_proc_io("rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4", partial) == 4);
    CHECK_FALSE(partial.has(ProcessCounter::read_bytes));
    CHECK(value(partial, ProcessCounter::syscw) == 4);  // no trailing newline
}

TEST_CASE("process counters: one pread per snapshot, its footprint reported, the file kept open") {
    glint::test::FakePerfKernel fake;
    fake.files["/proc/self/io"] = kIoText;
    ProcIoSeam seam;
    os::ProcessCounterReader reader;
    for (int i = 0; i < 3; ++i) {
        const ProcessSnapshot s = reader.snapshot();
        CHECK(s.io_ok);
        CHECK(s.rusage_ok);
        CHECK(s.own_reads == 1);  // a short read is the whole file
        CHECK(s.own_bytes == std::string(kIoText).size());
        CHECK(value(s, ProcessCounter::rchar) == 100);
        CHECK(value(s, ProcessCounter::syscr) == 5);
        CHECK(s.has(ProcessCounter::minflt));
    }
    CHECK(seam.opens == 1);
    CHECK(seam.preads == 3);
    CHECK(seam.offsets_nonzero == 0);
}

TEST_CASE(
    "process counters: a failed read reports errno, closes the file, and the next one reopens") {
    glint::test::FakePerfKernel fake;
    fake.files["/proc/self/io"] = kIoText;
    ProcIoSeam seam;
    seam.fail_next = EIO;
    os::ProcessCounterReader reader;
    const ProcessSnapshot failed = reader.snapshot();
    CHECK_FALSE(failed.io_ok);
    CHECK(failed.io_error == EIO);
    CHECK_FALSE(failed.has(ProcessCounter::syscr));
    CHECK(failed.has(ProcessCounter::minflt));  // getrusage still answered
    const ProcessSnapshot again = reader.snapshot();
    CHECK(again.io_ok);
    CHECK(seam.opens == 2);
}

TEST_CASE(
    "process counters: an unreadable /proc/self/io or a failing getrusage leaves fields absent") {
    glint::test::FakePerfKernel fake;
    fake.file_errno["/proc/self/io"] = EACCES;
    os::linux_::SysTable table = os::linux_::sys();
    table.getrusage = &failing_getrusage;
    os::linux_::ScopedSys scope(table);
    os::ProcessCounterReader reader;
    const ProcessSnapshot s = reader.snapshot();
    CHECK_FALSE(s.io_ok);
    CHECK(s.io_error == EACCES);
    CHECK_FALSE(s.rusage_ok);
    for (bool present : s.present) CHECK_FALSE(present);
}

TEST_CASE("real tier0: a body reading N bytes per call reads rchar N and syscr its call count") {
    char path[] = "/tmp/glint_tier0_test_XXXXXX";
    const int fd = ::mkstemp(path);
    REQUIRE(fd >= 0);
    ::unlink(path);
    constexpr std::size_t kBytes = 3000;
    const std::vector<char> data(kBytes, 'q');
    REQUIRE(::write(fd, data.data(), kBytes) == static_cast<ssize_t>(kBytes));

    auto tier = make_tier0_tier();
    TierRequest o;
    o.metrics = {"rchar"};
    const auto statuses = tier->open(o);
    REQUIRE_MESSAGE(statuses.front().usable(), statuses.front().reason);

    std::vector<char> buffer(kBytes);
    auto two_reads = [&] {  // two pread(2) calls of half the file each
        ssize_t got = ::pread(fd, buffer.data(), kBytes / 2, 0);
        got += ::pread(fd, buffer.data() + kBytes / 2, kBytes / 2, kBytes / 2);
        return got;
    };
    const PassResult r = tier->count(batched(two_reads), PassPlan{2000, 100});
    CHECK(cell(r, "rchar") == doctest::Approx(kBytes).epsilon(0.001));
    CHECK(cell(r, "syscr") == doctest::Approx(2).epsilon(0.001));
    CHECK(cell(r, "syscw") < 0.01);
    CHECK(cell(r, "wchar") < 0.5);
    CHECK(cell(r, "rd-bytes") < 1);  // the page cache served it
    CHECK(cell(r, "cache-hit") > 99.9);

    auto quiet = [] {};
    const PassResult q = tier->count(batched(quiet), PassPlan{1000, 100});
    CHECK(cell(q, "syscr") < 0.01);
    CHECK(cell(q, "rchar") < 1);
    ::close(fd);
}

TEST_CASE("real tier0: a body writing through write(2) reads syscw and wchar") {
    glint::test::TempDir dir{"glint-write-sink"};  // writes go to a file of its own, not /dev/null
    const int fd = ::open(dir.file("sink").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    REQUIRE(fd >= 0);
    auto tier = make_tier0_tier();
    TierRequest o;
    o.metrics = {"syscw"};
    REQUIRE(tier->open(o).front().usable());
    const char bytes[64] = {};
    auto write_64 = [&] { return ::write(fd, bytes, sizeof bytes); };
    const PassResult r = tier->count(batched(write_64), PassPlan{1000, 100});
    CHECK(cell(r, "syscw") == doctest::Approx(1).epsilon(0.001));
    CHECK(cell(r, "wchar") == doctest::Approx(64).epsilon(0.001));
    CHECK(std::isnan(cell(r, "cache-hit")));  // nothing read: no rate
    ::close(fd);
}
