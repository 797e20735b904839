// tests/support/seqlock_tear_cases.hpp: the perf page's seqlock (os/linux/mmap_page.hpp,
// read_page) under kernel updates that land at the points of a read where they tear it, made
// deterministic through the protocol's own policy hooks: the update runs inside load_pair (right
// after the lock and index were loaded together, as arm64's ldp does, before the offset) or
// inside read_pmc (right before the counter latches, the offset already loaded; or right after,
// before the closing lock load). The counts must come out true each time, and a page whose lock
// never settles must end in torn == true after exactly kMaxTornReads attempts, never a hang.
//
// Arch-neutral and header-only, with its TEST_CASEs: include it from exactly one source file of
// a test binary (the host's unit tests, the arm64 guest's tests).
#pragma once

#include <doctest/doctest.h>
#include <linux/perf_event.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "os/linux/mmap_page.hpp"

namespace glint::test::tear {

namespace linux_ = glint::os::linux_;

// One event on a fake page and four hardware counters (page indices 1..4) of `kWidth` bits. An
// update moves the event between counters 1 and 2 with a new raw start, as the kernel does when
// it reschedules an event; another event takes the vacated counter (garbage there). Every update
// keeps the count and bumps the lock around its writes.
struct FakeKernel {
    static constexpr unsigned kWidth = 32;
    static constexpr std::uint64_t kMask = (std::uint64_t{1} << kWidth) - 1;

    perf_event_mmap_page page{};
    std::uint64_t counter[5] = {};  // by page index
    std::int64_t truth = 0;         // what read(2) would return

    // When to update, by the 1-based number of the hook call (0: never).
    unsigned update_after_load = 0;  // after this lock+index load (paired policies only)
    unsigned update_before_pmc = 0;  // before this counter read latches
    unsigned update_after_pmc = 0;   // after it latched
    bool never_settle = false;       // every counter read bumps the lock
    unsigned loads = 0;              // lock+index loads (paired policies)
    unsigned pmc_reads = 0;

    FakeKernel() {
        page.cap_user_rdpmc = 1;
        page.pmc_width = kWidth;
        truth = 1'000'000;
        place(1, kMask - 500);  // just below the wrap: a negative sign-extended raw value
    }

    void place(std::uint32_t index, std::uint64_t raw) {
        ++page.lock;
        if (page.index != 0) counter[page.index] = 0x5a5a5a5a;  // another event's now
        counter[index] = raw & kMask;
        page.index = index;
        page.offset = truth - linux_::sign_extend(raw & kMask, kWidth);
        ++page.lock;
    }
    void update() { place(page.index == 1 ? 2 : 1, 77 + 1000 * (loads + pmc_reads)); }
    void advance(std::int64_t n) {
        truth += n;
        counter[page.index] = (counter[page.index] + static_cast<std::uint64_t>(n)) & kMask;
    }
};

inline FakeKernel* g_kernel = nullptr;

// The arch policy of a fake PMU: read_pmc reads the fake counters (and runs the read hooks).
struct FakePmu {
    static std::uint64_t read_pmc(std::uint32_t index) {
        FakeKernel& k = *g_kernel;
        ++k.pmc_reads;
        if (k.pmc_reads == k.update_before_pmc) k.update();
        const std::uint64_t value = k.counter[index];
        if (k.pmc_reads == k.update_after_pmc) k.update();
        if (k.never_settle) k.page.lock += 2;
        return value;
    }
    static std::uint64_t read_timestamp() { return 0; }
};

// lock and index loaded separately, lock first (x86's shape: no hook between them).
struct SeparatePolicy : FakePmu {};

// lock and index loaded together (arm64's ldp), then the load hook.
struct PairedPolicy : FakePmu {
    template <std::size_t Offset>
    static void load_pair(const void* base, std::uint32_t& first, std::uint32_t& second) {
        const auto* bytes = static_cast<const unsigned char*>(base) + Offset;
        first = *reinterpret_cast<const volatile std::uint32_t*>(bytes);
        second = *reinterpret_cast<const volatile std::uint32_t*>(bytes + 4);
        FakeKernel& k = *g_kernel;
        ++k.loads;
        if (k.loads == k.update_after_load) k.update();
    }
};

struct Scope {
    FakeKernel kernel;
    Scope() { g_kernel = &kernel; }
    ~Scope() { g_kernel = nullptr; }
};

template <class Policy>
linux_::PageReading read(const FakeKernel& k) {
    return linux_::read_page<Policy, false>(&k.page);
}

}  // namespace glint::test::tear

TEST_CASE("seqlock tears by policy hook: an update after the lock and index load") {
    using namespace glint::test::tear;
    Scope s;
    s.kernel.advance(123);
    s.kernel.update_after_load = 1;  // the offset then belongs to the new counter, not index 1
    const auto r = read<PairedPolicy>(s.kernel);
    REQUIRE(r.user_read);
    CHECK(r.count == s.kernel.truth);
    CHECK(s.kernel.loads == 2);  // torn once, read again
    CHECK(r.index == 2);
}

TEST_CASE("seqlock tears by policy hook: an update between the offset load and the counter") {
    using namespace glint::test::tear;
    for (const bool paired : {false, true}) {
        INFO((paired ? "lock and index paired" : "lock and index separate"));
        Scope s;
        s.kernel.advance(99);
        s.kernel.update_before_pmc = 1;  // the counter read is the moved event's leftover
        const auto r = paired ? read<PairedPolicy>(s.kernel) : read<SeparatePolicy>(s.kernel);
        REQUIRE(r.user_read);
        CHECK(r.count == s.kernel.truth);
        CHECK(s.kernel.pmc_reads == 2);
    }
}

TEST_CASE("seqlock tears by policy hook: an update between the counter and the closing lock") {
    using namespace glint::test::tear;
    for (const bool paired : {false, true}) {
        INFO((paired ? "lock and index paired" : "lock and index separate"));
        Scope s;
        s.kernel.update_after_pmc = 1;
        const auto r = paired ? read<PairedPolicy>(s.kernel) : read<SeparatePolicy>(s.kernel);
        REQUIRE(r.user_read);
        CHECK(r.count == s.kernel.truth);
        CHECK(r.index == 2);             // the value after the update, read again
        CHECK(s.kernel.pmc_reads == 2);  // the lock changed: the read did not stand
    }
}

TEST_CASE("seqlock tears by policy hook: a page whose lock changes on every read") {
    using namespace glint::test::tear;
    for (const bool paired : {false, true}) {
        INFO((paired ? "lock and index paired" : "lock and index separate"));
        Scope s;
        s.kernel.never_settle = true;
        const auto r = paired ? read<PairedPolicy>(s.kernel) : read<SeparatePolicy>(s.kernel);
        CHECK_FALSE(r.user_read);  // the caller reads it another way
        CHECK(r.torn);
        CHECK(s.kernel.pmc_reads == glint::os::linux_::kMaxTornReads);
        // A settled page reads normally again.
        s.kernel.never_settle = false;
        const auto again = paired ? read<PairedPolicy>(s.kernel) : read<SeparatePolicy>(s.kernel);
        CHECK(again.user_read);
        CHECK_FALSE(again.torn);
        CHECK(again.count == s.kernel.truth);
    }
}
