// <glint/hot.hpp> pulls in nothing heavy: checked before anything else is included in this
// translation unit (libstdc++'s include guards name what was pulled in).
#include <glint/hot.hpp>

#if defined(__GLIBCXX__)
#if defined(_GLIBCXX_IOSTREAM) || defined(_GLIBCXX_OSTREAM) || defined(_GLIBCXX_SSTREAM)
#error "<glint/hot.hpp> must not include the iostream library"
#endif
#if defined(_GLIBCXX_STRING) || defined(_GLIBCXX_VECTOR) || defined(_GLIBCXX_MEMORY) || \
    defined(_GLIBCXX_FUNCTIONAL) || defined(_GLIBCXX_MAP)
#error "<glint/hot.hpp> must not include allocating containers, std::function or <memory>"
#endif
#endif
#if defined(FMT_VERSION)
#error "<glint/hot.hpp> must not include fmt"
#endif

#include <doctest/doctest.h>

#include <type_traits>

TEST_CASE("hot header: snapshots and deltas are plain fixed-size data") {
    static_assert(std::is_trivially_copyable_v<glint::hot::Snapshot<2>>);
    static_assert(std::is_trivially_copyable_v<glint::hot::Delta<8>>);
    static_assert(sizeof(glint::hot::Snapshot<2>) == 4 * sizeof(std::int64_t));
    static_assert(!std::is_copy_constructible_v<glint::hot::Group<2>>);
    static_assert(std::is_nothrow_move_constructible_v<glint::hot::Group<2>>);
    // The per-thread contract's accessors (a read on another thread is refused and counted).
    const glint::hot::Group<2>* group = nullptr;
    static_assert(std::is_same_v<decltype(group->wrong_thread_reads()), std::uint64_t>);
    static_assert(std::is_same_v<decltype(group->thread_status()), glint::hot::ThreadStatus>);
    static_assert(std::is_trivially_copyable_v<glint::hot::ThreadStatus>);
    const glint::hot::Snapshot<2> a{{10, 20}, 100, 5000};
    const glint::hot::Snapshot<2> b{{15, 27}, 130, 5000};
    const glint::hot::Delta<2> d = b - a;
    CHECK(d.counts[0] == 5);
    CHECK(d.counts[1] == 7);
    CHECK(d.ticks == 30);
    CHECK(d.descheduled_ns == 0);
    CHECK_FALSE(d.partial());  // descheduled before the region, not during it
    const glint::hot::Delta<2> cost{{1, 2}, 3, 0};
    const glint::hot::Delta<2> net = d - cost;
    CHECK(net.counts[0] == 4);
    CHECK(net.counts[1] == 5);
    CHECK(net.ticks == 27);
    CHECK_FALSE(net.partial());
    // A region during which the group lost 700 ns of PMU time: flagged, and still flagged once
    // the cost (whose descheduled_ns is 0) is subtracted.
    const glint::hot::Snapshot<2> c{{16, 28}, 140, 5700};
    CHECK((c - b).descheduled_ns == 700);
    CHECK((c - b).partial());
    CHECK((c - b - cost).partial());
    const glint::hot::Counts<2> x{{1, 2}, 40};
    const glint::hot::Counts<2> y{{3, 5}, 40};
    CHECK_FALSE((y - x).partial());
    CHECK((glint::hot::Counts<2>{{4, 6}, 41} - y).partial());
    CHECK(glint::hot::zero_syscall(glint::hot::Path::inline_user));
    CHECK(glint::hot::zero_syscall(glint::hot::Path::out_of_line_user));
    CHECK_FALSE(glint::hot::zero_syscall(glint::hot::Path::syscall));
    CHECK_FALSE(glint::hot::zero_syscall(glint::hot::Path::none));
}
