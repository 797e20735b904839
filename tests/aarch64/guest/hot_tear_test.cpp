// The seqlock of <glint/hot.hpp>'s inline arm64 reader, torn by a "kernel" that interrupts it at
// arbitrary instructions. A timer signal (re-armed at pseudo-random intervals: under -icount the
// landing points are reproducible, and they spread over the read) rewrites a fake perf page the
// group's slot 1 reads: it moves the page between two real event counters that count the same
// instructions (PMEVCNTR0 and PMEVCNTR1, the second started 2^30 lower by its sample period),
// adjusting the offset so the page's count stays the true one, and bumps the lock around it, as
// the kernel's update does. A read that mixed the index (or counter) of one with the offset of
// the other would be off by about 2^30; every read must lie between real reads taken just
// before and just after it.
#include <doctest/doctest.h>

#include <glint/hot.hpp>

#include <signal.h>
#include <sys/time.h>
#include <ucontext.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "guest_events.hpp"
#include "os/linux/mmap_page.hpp"

using glint::guest::Events;
using glint::guest::EventSpec;
using glint::guest::OpenOptions;
using glint::hot::Counts;
using glint::hot::Group;
using glint::hot::Path;
namespace linux_ = glint::os::linux_;

extern "C" const char __start_glint_tear_reads[];
extern "C" const char __stop_glint_tear_reads[];

namespace {

constexpr std::uint64_t kSamplePeriod = std::uint64_t{1} << 30;
constexpr std::uint64_t kSignals = 3'000;

struct TearState {
    const Events* events = nullptr;
    perf_event_mmap_page* fake = nullptr;
    std::int64_t delta = 0;  // count of event 1 - count of event 2 (constant: same instructions)
    std::uint32_t real_lock[3] = {};  // the real pages' locks at the last update
    std::uint64_t rng = 0x2545f4914f6cdd1dull;
    std::atomic<std::uint64_t> signals{0};
    std::atomic<std::uint64_t> inside{0};  // signals that landed inside an inline read
    std::atomic<bool> running{false};
};
TearState g_state;

template <class T, class V>
void store(T& field, V value) {
    *static_cast<volatile T*>(&field) = static_cast<T>(value);
}

// A real page's offset, consistent with its lock.
std::int64_t offset_of(const perf_event_mmap_page* page, std::uint32_t& lock) {
    std::int64_t offset;
    std::uint32_t again;
    do {
        lock = *static_cast<const volatile std::uint32_t*>(&page->lock);
        std::atomic_signal_fence(std::memory_order_seq_cst);
        offset = *static_cast<const volatile decltype(page->offset)*>(&page->offset);
        std::atomic_signal_fence(std::memory_order_seq_cst);
        again = *static_cast<const volatile std::uint32_t*>(&page->lock);
    } while (again != lock);
    return offset;
}

// The "kernel": moves the fake page to the other counter with the count kept.
void move_fake() {
    TearState& s = g_state;
    const std::uint32_t target = s.fake->index == 1 ? 2 : 1;
    const std::int64_t offset =
        offset_of(s.events->page(target), s.real_lock[target]) + (target == 2 ? s.delta : 0);
    store(s.fake->lock, s.fake->lock + 1);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    store(s.fake->index, target);
    store(s.fake->offset, offset);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    store(s.fake->lock, s.fake->lock + 1);
}

void arm_timer() {
    TearState& s = g_state;
    s.rng ^= s.rng << 13;
    s.rng ^= s.rng >> 7;
    s.rng ^= s.rng << 17;
    itimerval t{};
    t.it_value.tv_usec = 20 + static_cast<long>(s.rng % 61);  // 20..80 us
    setitimer(ITIMER_REAL, &t, nullptr);
}

void on_alarm(int, siginfo_t*, void* context) {
    TearState& s = g_state;
    if (!s.running.load(std::memory_order_relaxed)) return;
    const auto pc =
        reinterpret_cast<const char*>(static_cast<ucontext_t*>(context)->uc_mcontext.pc);
    if (pc >= __start_glint_tear_reads && pc < __stop_glint_tear_reads) ++s.inside;
    move_fake();
    ++s.signals;
    arm_timer();
}

// The inline read under test, in a section of its own so the handler can tell it was inside.
[[gnu::noinline, gnu::section("glint_tear_reads")]] Counts<2> read_in_section(const Group<2>& g) {
    return g.read_counts();
}

std::int64_t real_count(const perf_event_mmap_page* page) {
    return linux_::read_page<linux_::Arm64LinuxPolicy<glint::arch::aarch64::Pmu>, false>(page)
        .count;
}

}  // namespace

TEST_CASE("hot seqlock: kernel updates at random instructions of inline reads never tear them") {
    // cycles (PMCCNTR), instructions (PMEVCNTR0) and instructions again (PMEVCNTR1, its
    // counter armed 2^30 below the wrap by a sample period it never reaches here).
    Events events({{linux_::kArmv8CpuCycles},
                   {linux_::kArmv8InstRetired},
                   {linux_::kArmv8InstRetired, true, kSamplePeriod}},
                  OpenOptions{.want_64bit = false});
    REQUIRE_MESSAGE(events.ok(), events.error());
    events.enable();
    REQUIRE(linux_::capabilities_of(events.page(1)).index == 1);
    REQUIRE(linux_::capabilities_of(events.page(2)).index == 2);
    const glint::guest::SyscallReading start = events.read_leader_of(0);
    const std::int64_t delta =
        static_cast<std::int64_t>(start.counts[1]) - static_cast<std::int64_t>(start.counts[2]);
    // Same instructions, but their raw counters are about 2^30 apart, and so are the pages'
    // offsets (less the counts' difference): a torn read cannot hide.
    std::uint32_t lock = 0;
    const std::int64_t apart =
        offset_of(events.page(1), lock) - offset_of(events.page(2), lock) - delta;
    CHECK((apart > (std::int64_t{1} << 29) || apart < -(std::int64_t{1} << 29)));

    alignas(4096) static perf_event_mmap_page fake{};
    fake.cap_user_rdpmc = 1;
    fake.pmc_width = 32;
    g_state.events = &events;
    g_state.fake = &fake;
    g_state.delta = delta;
    fake.index = 2;
    move_fake();  // onto index 1

    glint::hot::Attachment a;
    a.pages[0] = events.page(0);
    a.pages[1] = &fake;
    a.slow = &glint::guest::read_group_for_hot;
    a.slow_context = &events;
    Group<2> g = Group<2>::attach(a);
    REQUIRE(g.path() == Path::inline_user);

    struct sigaction sa {
    }, previous{};
    sa.sa_sigaction = &on_alarm;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    REQUIRE(sigaction(SIGALRM, &sa, &previous) == 0);
    g_state.running = true;
    arm_timer();
    std::uint64_t reads = 0, wrong = 0, skipped = 0;
    while (g_state.signals.load(std::memory_order_relaxed) < kSignals && reads < 50'000'000) {
        const std::int64_t before = real_count(events.page(1));
        const Counts<2> c = read_in_section(g);
        const std::int64_t after = real_count(events.page(1));
        ++reads;
        // The real kernel updated a real page since the fake was made from it: the fake's
        // offset may be stale until the next signal; such a read proves nothing.
        if (events.page(1)->lock != g_state.real_lock[1] ||
            events.page(2)->lock != g_state.real_lock[2]) {
            ++skipped;
            continue;
        }
        if (c.counts[1] < before || c.counts[1] > after) {
            if (wrong < 5)
                std::printf("glint-guest: torn read %lld not in [%lld, %lld]\n",
                            static_cast<long long>(c.counts[1]), static_cast<long long>(before),
                            static_cast<long long>(after));
            ++wrong;
        }
    }
    g_state.running = false;
    itimerval off{};
    setitimer(ITIMER_REAL, &off, nullptr);
    sigaction(SIGALRM, &previous, nullptr);
    const glint::guest::SyscallReading end = events.read_leader_of(0);
    events.disable();
    std::printf(
        "glint-measure: cpu=%s hot inline reads under a timer-signal kernel: %llu reads, "
        "%llu page moves (%llu inside an inline read), %llu wrong, %llu skipped (the "
        "real pages changed)\n",
        glint::guest::guest_cpu().c_str(), static_cast<unsigned long long>(reads),
        static_cast<unsigned long long>(g_state.signals.load()),
        static_cast<unsigned long long>(g_state.inside.load()),
        static_cast<unsigned long long>(wrong), static_cast<unsigned long long>(skipped));
    CHECK(static_cast<std::int64_t>(end.counts[1]) - static_cast<std::int64_t>(end.counts[2]) ==
          delta);
    CHECK(g_state.signals.load() >= kSignals);
    CHECK(g_state.inside.load() > kSignals / 10);
    CHECK(wrong == 0);
    CHECK(skipped < reads / 100);
    CHECK(g.syscall_reads() == 0);
}
