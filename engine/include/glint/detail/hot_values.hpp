// glint/detail/hot_values.hpp: what <glint/hot.hpp> reads return, and their differences
// (included by <glint/hot.hpp>; its comment states the contracts).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace glint::hot {

// Running counts in group order, a timestamp, and the group's descheduled time. A read that
// failed (a read(2) error on the open group: practically never) stores kNotRead in every count
// and in descheduled_ns, and is counted by Group::failed_reads(). A read refused on another
// thread than the group's stores kNotRead in every count and kNotRead + n in descheduled_ns (n:
// a number no other refused read has), so every difference that involves it is partial().
inline constexpr std::int64_t kNotRead = INT64_MIN;

// descheduled_ns, in every type below: the nanoseconds the group has spent enabled but off the
// PMU since it opened (the leader's time_enabled - time_running; every member of a perf group
// is scheduled with its leader). It grows only while the kernel keeps the group off the PMU
// (more events than counters: multiplexing; a pinned event taking the counters), when the
// counters count nothing. In a difference it is the time the region lost, so partial() says
// that the region's counts are short by an unknown amount.
template <std::size_t N>
struct Snapshot {
    std::int64_t counts[N];
    std::uint64_t ticks;
    std::int64_t descheduled_ns;
};

// Running counts alone (read_counts(): no timestamp), or their differences.
template <std::size_t N>
struct Counts {
    std::int64_t counts[N];
    std::int64_t descheduled_ns;
    // A difference: the group was off the PMU for part of the region (its counts are short).
    constexpr bool partial() const { return descheduled_ns != 0; }
};

template <std::size_t N>
struct Delta {
    std::int64_t counts[N] = {};
    std::int64_t ticks = 0;
    std::int64_t descheduled_ns = 0;
    // The group was off the PMU for part of the region (its counts are short).
    constexpr bool partial() const { return descheduled_ns != 0; }
};

namespace detail {
// Pins a value in a general register at this point. GCC otherwise likes to pack a snapshot's
// counts into a vector register to spill or subtract them, which costs more instructions than
// it saves around a region this small.
[[gnu::always_inline]] constexpr void in_register(std::int64_t& value) {
    if (!std::is_constant_evaluated()) asm("" : "+r"(value));
}
}  // namespace detail

namespace detail {
// a - b modulo 2^64: no overflow when either side is kNotRead (the same one instruction).
[[gnu::always_inline]] constexpr std::int64_t wrapping_sub(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}

// d = a - b for the counts (each pinned in a register) and the descheduled time.
template <std::size_t N, class Out, class A, class B>
[[gnu::always_inline]] constexpr void subtract_counts(Out& d, const A& a, const B& b) {
    for (std::size_t i = 0; i < N; ++i) {
        d.counts[i] = wrapping_sub(a.counts[i], b.counts[i]);
        in_register(d.counts[i]);
    }
    // A difference with a refused read (kNotRead + n) is never 0.
    d.descheduled_ns = wrapping_sub(a.descheduled_ns, b.descheduled_ns);
}
}  // namespace detail

template <std::size_t N>
constexpr Delta<N> operator-(const Snapshot<N>& end, const Snapshot<N>& start) {
    Delta<N> d;
    detail::subtract_counts<N>(d, end, start);
    d.ticks = static_cast<std::int64_t>(end.ticks - start.ticks);
    return d;
}

// Per-counter deltas, as Counts (nothing was timed).
template <std::size_t N>
constexpr Counts<N> operator-(const Counts<N>& end, const Counts<N>& start) {
    Counts<N> d;
    detail::subtract_counts<N>(d, end, start);
    return d;
}

template <std::size_t N>
constexpr Delta<N> operator-(const Delta<N>& a, const Delta<N>& b) {
    Delta<N> d;
    detail::subtract_counts<N>(d, a, b);
    d.ticks = a.ticks - b.ticks;
    return d;
}

}  // namespace glint::hot
