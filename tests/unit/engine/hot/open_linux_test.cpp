// <glint/hot.hpp>'s out-of-line open against the fake perf kernel (the sys() seam): names, the
// user-only fallback, refusals with their reasons, one read(2) per read() on the syscall path.
// Also the branch-free sign extension the inline reader relies on.
#include <doctest/doctest.h>

#include <glint/hot.hpp>

#include <linux/perf_event.h>

#include <cerrno>
#include <string>

#include "os/linux/mmap_page.hpp"
#include "support/fake_perf_kernel.hpp"

using glint::hot::Group;
using glint::hot::Path;
using glint::test::FakePerfKernel;

namespace {

bool contains(const char* text, const char* part) {
    return std::string(text).find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("hot open: {cycles, instructions} as one group, enabled once, read by one read(2)") {
    FakePerfKernel kernel;
    Group<2> g({"cycles", "instructions"});
    REQUIRE_MESSAGE(g.ok(), g.status().reason);
    CHECK(g.path() == Path::syscall);  // the fake's pages never grant a user read
    CHECK_FALSE(g.status().user_only);
    REQUIRE(kernel.opened.size() == 2);
    CHECK(kernel.opened[0].type == PERF_TYPE_HARDWARE);
    CHECK(kernel.opened[0].config == PERF_COUNT_HW_CPU_CYCLES);
    CHECK(kernel.opened[1].config == PERF_COUNT_HW_INSTRUCTIONS);
    CHECK(static_cast<int>(kernel.opened[0].exclude_kernel) == 0);
    CHECK(kernel.enable_calls == 1);
    CHECK(kernel.any_enabled());
    const int reads = kernel.read_calls;
    const auto ioctls = kernel.ioctls.size();
    (void)g.read();
    (void)g.read();
    CHECK(kernel.read_calls == reads + 2);  // one group read per read(), not one per counter
    CHECK(kernel.ioctls.size() == ioctls);  // no ENABLE/DISABLE around reads
    CHECK(contains(g.status().reason, "read(2)"));
    CHECK(g.failed_reads() == 0);
}

TEST_CASE("hot open: kernel counting refused for permission falls back to user-only, disclosed") {
    {
        FakePerfKernel kernel;
        kernel.refuse_kernel_errno = EACCES;
        Group<1> g({"instructions"});
        REQUIRE_MESSAGE(g.ok(), g.status().reason);
        CHECK(g.status().user_only);
        CHECK(static_cast<int>(kernel.opened.back().exclude_kernel) == 1);
        CHECK(contains(g.status().reason, "user-only"));
    }
    {
        FakePerfKernel kernel;
        glint::hot::Options user_only;
        user_only.user_only = true;
        Group<1> asked({"instructions"}, user_only);
        REQUIRE(asked.ok());
        CHECK(asked.status().user_only);
        CHECK(kernel.open_calls == 1);
        CHECK_FALSE(contains(asked.status().reason, "refused"));
    }
}

TEST_CASE("hot open: refusals come back as a status with the reason and the remedy") {
    SUBCASE("no hardware PMU") {
        FakePerfKernel kernel;
        kernel.hardware_errno = ENOENT;
        Group<2> g({"cycles", "instructions"});
        CHECK_FALSE(g.ok());
        CHECK(g.path() == Path::none);
        CHECK(contains(g.status().reason, "cycles"));
        CHECK(contains(g.status().reason, "ENOENT"));
        CHECK(contains(g.status().remedy, "PMU"));
        CHECK(kernel.live_fds() == 0);
        const auto s = g.read();  // safe, and honest: nothing was read
        CHECK(s.counts[0] == glint::hot::kNotRead);
    }
    SUBCASE("every open refused for permission") {
        FakePerfKernel kernel;
        kernel.refuse_all_errno = EACCES;
        Group<1> g({"task-clock"});
        CHECK_FALSE(g.ok());
        CHECK(contains(g.status().reason, "EACCES"));
        CHECK(contains(g.status().remedy, "perf_event_paranoid"));
    }
    SUBCASE("an unknown name") {
        FakePerfKernel kernel;
        Group<2> g({"cycles", "bogus-event"});
        CHECK_FALSE(g.ok());
        CHECK(contains(g.status().reason, "'bogus-event'"));
        CHECK(contains(g.status().remedy, "branch-misses"));
        CHECK(contains(g.status().remedy, "raw:r<hex>"));
        CHECK(kernel.open_calls == 0);
    }
    SUBCASE("a malformed raw: selector") {
        FakePerfKernel kernel;
        Group<1> g({"raw:zz"});
        CHECK_FALSE(g.ok());
        CHECK(contains(g.status().reason, "raw:zz"));
        CHECK(kernel.open_calls == 0);
    }
    SUBCASE("a pfm: name that does not resolve") {
        FakePerfKernel kernel;
        Group<1> g({"pfm:NO_SUCH_EVENT_ANYWHERE"});
        CHECK_FALSE(g.ok());
        CHECK(contains(g.status().reason, "pfm:NO_SUCH_EVENT_ANYWHERE"));
        CHECK(kernel.open_calls == 0);
    }
    SUBCASE("generic names and selectors in one group") {
        FakePerfKernel kernel;
        Group<2> g({"cycles", "raw:r00c0"});
        CHECK_FALSE(g.ok());
        CHECK(contains(g.status().reason, "not both"));
        CHECK(kernel.open_calls == 0);
    }
}

TEST_CASE("hot open: raw: selectors open as PERF_TYPE_RAW members, one group") {
    FakePerfKernel kernel;
    Group<2> g({"raw:r00c0", "raw:r003c:u"});
    REQUIRE_MESSAGE(g.ok(), g.status().reason);
    REQUIRE(kernel.opened.size() == 2);
    CHECK(kernel.opened[0].type == PERF_TYPE_RAW);
    CHECK(kernel.opened[0].config == 0xc0);
    CHECK(static_cast<int>(kernel.opened[0].exclude_kernel) == 0);
    CHECK(kernel.opened[1].config == 0x3c);
    CHECK(static_cast<int>(kernel.opened[1].exclude_kernel) == 1);  // :u
    CHECK(contains(g.status().reason, "raw:r00c0, raw:r003c:u"));
    const int reads = kernel.read_calls;
    (void)g.read();
    CHECK(kernel.read_calls == reads + 1);
}

TEST_CASE("hot open: a failed read(2) marks the snapshot and is counted") {
    FakePerfKernel kernel;
    Group<2> g({"cycles", "instructions"});
    REQUIRE(g.ok());
    kernel.short_reads_after = kernel.read_calls;
    const auto s = g.read();
    CHECK(s.counts[0] == glint::hot::kNotRead);
    CHECK(s.counts[1] == glint::hot::kNotRead);
    CHECK(g.failed_reads() == 1);
}

TEST_CASE("hot open: closing the group closes its descriptors, a moved group stays usable") {
    FakePerfKernel kernel;
    {
        Group<2> g({"page-faults", "task-clock"});
        REQUIRE(g.ok());
        Group<2> moved(std::move(g));
        CHECK(moved.ok());
        CHECK_FALSE(g.ok());
        CHECK(kernel.live_fds() == 2);
        const int reads = kernel.read_calls;
        (void)moved.read();
        CHECK(kernel.read_calls == reads + 1);
        CHECK(g.read().counts[0] == glint::hot::kNotRead);  // the moved-from group reads nothing
    }
    CHECK(kernel.live_fds() == 0);
}

TEST_CASE("sign_extend: branch-free over every width the kernel publishes") {
    using glint::os::linux_::sign_extend;
    CHECK(sign_extend(0xffff'ffff'fff6ull, 48) == -10);
    CHECK(sign_extend(0x7fff'ffff'ffffull, 48) == 0x7fff'ffff'ffffll);
    CHECK(sign_extend(0xdead'beef'ffff'fff0ull, 32) == -16);
    CHECK(sign_extend(0x1234'5678'0000'0010ull, 32) == 16);
    CHECK(sign_extend(0x8000'0000'0000'0000ull, 64) == INT64_MIN);
    CHECK(sign_extend(0xffff'ffff'ffff'ffffull, 0) == -1);  // width 0: as is
    CHECK(sign_extend(1, 1) == -1);
    CHECK(sign_extend(2, 1) == 0);
    for (unsigned w = 1; w < 64; ++w) {
        INFO("width " << w);
        const std::uint64_t top = std::uint64_t{1} << (w - 1);
        CHECK(sign_extend(top, w) == -static_cast<std::int64_t>(top));
        CHECK(sign_extend(top - 1, w) == static_cast<std::int64_t>(top - 1));
    }
}
