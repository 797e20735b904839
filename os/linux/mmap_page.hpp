// <glint/detail/os/linux/mmap_page.hpp>: the perf_event_mmap_page self-monitoring protocol,
// once (the engine's brackets, the JIT stubs' reference path and <glint/hot.hpp> use it).
// Header-only.
//
// The arch supplies a policy with static read_pmc(page_index) and read_timestamp(), and
// optionally kPmcWidth, accepts_index, kIndexImpliesUserRead, load_pair and load_pair64 (see
// detail::pmc_width and its neighbours). read_pmc runs only when the page grants it
// (cap_user_rdpmc && index != 0); otherwise it would fault.
// Rationale: "<glint/detail/os/linux/mmap_page.hpp>" in glint's documentation (rationale.md).
#pragma once

#include <linux/perf_event.h>

#include <cstddef>
#include <cstdint>

namespace glint::os::linux_ {

// The page this protocol reads (the name glint::os::user_page offers on every OS).
using UserPage = perf_event_mmap_page;

// ---- pure arithmetic: tested on every host ---------------------------------------------------

// Sign-extends a raw counter of `width` bits (pmc_width). The kernel arms counters with a
// negative start value, so the raw value is signed; width 0 or 64 leaves it as is. `width` is
// what the kernel publishes (0..64). Branch-free (the shift is taken mod 64, which x86 shifts do
// for free), so a read whose width comes from the page adds no branch besides the seqlock's.
constexpr std::int64_t sign_extend(std::uint64_t raw, unsigned width) {
    const unsigned shift = (64u - width) & 63u;
    return static_cast<std::int64_t>(raw << shift) >> shift;
}

// The time_{offset,mult,shift} conversion (and the cap_user_time_short correction).
struct ClockConversion {
    std::uint64_t offset = 0;  // time_offset
    std::uint32_t mult = 0;    // time_mult
    std::uint16_t shift = 0;   // time_shift
    bool short_clock = false;  // cap_user_time_short: the clock is narrower than 64 bits
    std::uint64_t cycles = 0;  // time_cycles
    std::uint64_t mask = 0;    // time_mask
};

// Nanoseconds to add to time_enabled (and to time_running when the event is on the PMU) for a
// timestamp `cyc` read inside the seqlock. The kernel publishes time_shift below 64; a page
// that says otherwise (broken, forged) is taken modulo 64, as x86 and arm64 shifts do anyway,
// so no page content makes the arithmetic undefined (found by fuzzing).
constexpr std::uint64_t clock_delta_ns(std::uint64_t cyc, const ClockConversion& c) {
    if (c.short_clock) cyc = c.cycles + ((cyc - c.cycles) & c.mask);
    const unsigned shift = c.shift & 63u;
    const std::uint64_t quot = cyc >> shift;
    const std::uint64_t rem = cyc & ((std::uint64_t{1} << shift) - 1);
    return c.offset + quot * c.mult + ((rem * c.mult) >> shift);
}

// count * enabled / running without overflowing the product (the header's quot/rem form).
// running == 0 means never scheduled: the caller must report "not measured", not call this.
constexpr std::uint64_t scale_count(std::uint64_t count, std::uint64_t enabled,
                                    std::uint64_t running) {
    const std::uint64_t quot = count / running;
    const std::uint64_t rem = count % running;
    __extension__ using Wide = unsigned __int128;  // a GCC/Clang extension, outside ISO C++
    return quot * enabled +
           static_cast<std::uint64_t>((static_cast<Wide>(rem) * enabled) / running);
}

// ---- the seqlock read --------------------------------------------------------------------------

// Which times a read returns besides the count.
enum class PageTimes : std::uint8_t {
    none,          // no times (enabled, running: 0)
    published,     // time_enabled and time_running as the kernel last published them: no
                   // timestamp, no extrapolation. Their difference (the time the event was
                   // enabled but off the PMU) is current whenever index != 0, because the
                   // kernel republishes the page each time it puts the event on a counter and
                   // the two advance together while it stays there.
    extrapolated,  // both extrapolated to now with the timestamp (cap_user_time)
};

// How many times a read retries a torn seqlock before it gives up (torn == true): a kernel
// update takes a few hundred nanoseconds and comes at most once per scheduling event, so a page
// whose lock keeps changing through this many reads is not being updated but broken (or forged),
// and a caller must not spin on it.
inline constexpr unsigned kMaxTornReads = 64;
// Whether the arch's thread pointer tells this OS's threads apart: Linux keeps each thread's TLS
// block (its TCB) at the thread pointer, one per live thread.
inline constexpr bool kThreadPointerPerThread = true;

struct PageReading {
    std::int64_t count = 0;     // offset + sign-extended counter (only when user_read)
    std::uint64_t enabled = 0;  // time_enabled (PageTimes::published or extrapolated)
    std::uint64_t running = 0;  // time_running, likewise (extrapolated only while index != 0)
    std::uint32_t index = 0;    // the page's index at the read; 0: not on a counter now
    bool user_read = false;     // false: this counter must be read with read(2) instead
    bool torn = false;          // kMaxTornReads reads in a row were torn: no user read
};

namespace detail {
template <class T>
[[gnu::always_inline]] inline T load(const T& field) {
    return *static_cast<const volatile T*>(&field);
}
[[gnu::always_inline]] inline void compiler_barrier() { asm volatile("" ::: "memory"); }
// The counter width: a policy that declares `static constexpr unsigned kPmcWidth` promises the
// caller checked it once against this page's pmc_width (fixed for an event at open), so the read
// needs no load; otherwise the page's field.
template <class Arch>
[[gnu::always_inline]] inline unsigned pmc_width(const perf_event_mmap_page* page) {
    if constexpr (requires { Arch::kPmcWidth; }) {
        return Arch::kPmcWidth;
    } else {
        return load(page->pmc_width);
    }
}
// A policy that declares `static constexpr bool kIndexImpliesUserRead = true` states that on its
// kernel a non-zero index is only ever published together with cap_user_rdpmc (arm64 Linux:
// armv8pmu_user_event_idx returns 0 unless the event has user read, the same condition that sets
// cap_user_rdpmc), so a read that needs no times skips loading the capabilities.
// A policy may narrow which non-zero indices it reads with
// `static bool accepts_index(std::uint32_t index)` (true only for indices != 0 it can read);
// read_page then reports any other index as user_read == false.
template <class Arch>
[[gnu::always_inline]] inline bool accepts_index(std::uint32_t index) {
    if constexpr (requires { Arch::kHasUserCounterReads; }) {
        if constexpr (!Arch::kHasUserCounterReads) return false;  // read_pmc must never run
    }
    if constexpr (requires { Arch::accepts_index(index); }) {
        return Arch::accepts_index(index);
    } else {
        return index != 0;
    }
}
// `lock` and `index` are adjacent 32-bit fields. A policy with
// `template <std::size_t Offset> static void load_pair(const void* base, std::uint32_t& first,
// std::uint32_t& second)` loads both with one instruction: a self-monitoring reader shares its
// CPU with the kernel's updates, so one instruction sees both from the same instant, which is
// all the seqlock needs (the closing lock re-read still decides). Otherwise: two loads, lock
// first.
template <class Arch>
[[gnu::always_inline]] inline void load_lock_and_index(const perf_event_mmap_page* page,
                                                       std::uint32_t& lock, std::uint32_t& index) {
    constexpr std::size_t kLock = offsetof(perf_event_mmap_page, lock);
    static_assert(offsetof(perf_event_mmap_page, index) == kLock + sizeof(std::uint32_t));
    if constexpr (requires(std::uint32_t & a) { Arch::template load_pair<kLock>(page, a, a); }) {
        Arch::template load_pair<kLock>(page, lock, index);
    } else {
        lock = load(page->lock);
        compiler_barrier();
        index = load(page->index);
    }
}
template <class Arch>
constexpr bool index_implies_user_read() {
    if constexpr (requires { Arch::kIndexImpliesUserRead; }) {
        return Arch::kIndexImpliesUserRead;
    } else {
        return false;
    }
}
// time_enabled and time_running are adjacent 64-bit fields. A policy with
// `template <std::size_t Offset> static void load_pair64(const void* base, std::uint64_t& first,
// std::uint64_t& second)` loads both with one instruction (the closing lock re-read decides
// whether they belong together, as for everything else the read loads); otherwise two loads.
template <class Arch>
[[gnu::always_inline]] inline void load_times(const perf_event_mmap_page* page,
                                              std::uint64_t& enabled, std::uint64_t& running) {
    constexpr std::size_t kEnabled = offsetof(perf_event_mmap_page, time_enabled);
    static_assert(offsetof(perf_event_mmap_page, time_running) == kEnabled + sizeof(std::uint64_t));
    if constexpr (requires(std::uint64_t & a) {
                      Arch::template load_pair64<kEnabled>(page, a, a);
                  }) {
        Arch::template load_pair64<kEnabled>(page, enabled, running);
    } else {
        enabled = load(page->time_enabled);
        running = load(page->time_running);
    }
}
}  // namespace detail

namespace detail {
// One attempt of the seqlock read: `settled` tells whether the closing lock load matched the
// opening one (a read that stops early, the page granting no user read, is settled).
template <class Arch, PageTimes Times>
[[gnu::always_inline]] inline PageReading read_page_once(const perf_event_mmap_page* page,
                                                         bool& settled) {
    // Locals, not the result struct, until the end: the barriers' memory clobbers would
    // otherwise keep the struct in memory and cost a store per field per read.
    constexpr bool kExtrapolate = Times == PageTimes::extrapolated;
    constexpr bool kNeedCaps = kExtrapolate || !index_implies_user_read<Arch>();
    std::uint32_t seq;
    std::uint32_t index;
    bool user_read;
    std::int64_t count = 0;
    std::uint64_t enabled = 0;
    std::uint64_t running = 0;
    settled = true;
    load_lock_and_index<Arch>(page, seq, index);
    compiler_barrier();
    if constexpr (Times != PageTimes::none) load_times<Arch>(page, enabled, running);
    std::uint64_t caps = 0;
    if constexpr (kNeedCaps) caps = load(page->capabilities);
    if constexpr (index_implies_user_read<Arch>()) {
        user_read = accepts_index<Arch>(index);
    } else {
        user_read = ((caps >> 2) & 1) && accepts_index<Arch>(index);  // cap_user_rdpmc
    }
    // Without extrapolation nothing read so far needs the seqlock's confirmation (published
    // times are only used with a user read): "no user read" is final.
    if (kExtrapolate || __builtin_expect(user_read, 1)) {
        if constexpr (kExtrapolate) {
            if ((caps >> 3) & 1) {  // cap_user_time
                ClockConversion c;
                c.offset = load(page->time_offset);
                c.mult = load(page->time_mult);
                c.shift = load(page->time_shift);
                c.short_clock = (caps >> 5) & 1;  // cap_user_time_short
                if (c.short_clock) {
                    c.cycles = load(page->time_cycles);
                    c.mask = load(page->time_mask);
                }
                const std::uint64_t delta = clock_delta_ns(Arch::read_timestamp(), c);
                enabled += delta;
                if (index != 0) running += delta;
            }
        }
        if (user_read) {
            const std::int64_t offset = load(page->offset);
            const unsigned width = pmc_width<Arch>(page);
            // Wrapping, as the kernel's own u64 arithmetic: a forged page cannot make it undefined.
            count = static_cast<std::int64_t>(
                static_cast<std::uint64_t>(offset) +
                static_cast<std::uint64_t>(sign_extend(Arch::read_pmc(index), width)));
        }
        compiler_barrier();
        settled = load(page->lock) == seq;
    }
    PageReading r;
    r.count = count;
    r.enabled = enabled;
    r.running = running;
    r.index = index;
    r.user_read = user_read;
    return r;
}
}  // namespace detail

// Reads the counter behind `page` and the `Times` asked for. Retries while the kernel's seqlock
// changes, at most kMaxTornReads attempts in all: then it returns torn == true and user_read ==
// false (the caller reads the counter another way). Never returns a torn value.
// Returns user_read == false (and no count) when the page does not grant a user read.
template <class Arch, PageTimes Times>
[[gnu::always_inline]] inline PageReading read_page_with(const perf_event_mmap_page* page) {
    bool settled;
    PageReading r = detail::read_page_once<Arch, Times>(page, settled);
    if (__builtin_expect(settled, 1)) return r;
    // The retries: a second copy of the read, so the first attempt carries no attempt counter.
    for (unsigned attempt = 1; attempt < kMaxTornReads; ++attempt) {
        r = detail::read_page_once<Arch, Times>(page, settled);
        if (settled) return r;
    }
    r.user_read = false;
    r.torn = true;
    return r;
}

// read_page_with, the times extrapolated (WithTimes) or none.
template <class Arch, bool WithTimes = true>
[[gnu::always_inline]] inline PageReading read_page(const perf_event_mmap_page* page) {
    return read_page_with < Arch, WithTimes ? PageTimes::extrapolated : PageTimes::none > (page);
}

// Capability bits of a page, decoded (for disclosure and for choosing a read path).
struct PageCapabilities {
    bool user_rdpmc = false;
    bool user_time = false;
    bool user_time_zero = false;
    bool user_time_short = false;
    unsigned pmc_width = 0;
    std::uint32_t index = 0;
};

inline PageCapabilities capabilities_of(const perf_event_mmap_page* page) {
    const std::uint64_t caps = detail::load(page->capabilities);
    PageCapabilities c;
    c.user_rdpmc = (caps >> 2) & 1;
    c.user_time = (caps >> 3) & 1;
    c.user_time_zero = (caps >> 4) & 1;
    c.user_time_short = (caps >> 5) & 1;
    c.pmc_width = detail::load(page->pmc_width);
    c.index = detail::load(page->index);
    return c;
}

}  // namespace glint::os::linux_
