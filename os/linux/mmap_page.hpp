// os/linux/mmap_page.hpp: the perf_event_mmap_page self-monitoring protocol, once.
//
// This is the one implementation of the protocol documented on struct perf_event_mmap_page in
// include/uapi/linux/perf_event.h; the engine's brackets, the JIT stubs' reference path and
// <glint/hot.hpp> all use it. Header-only so it inlines into hot loops.
//
// The arch supplies the instructions through a policy type with two static functions:
//   std::uint64_t read_pmc(std::uint32_t page_index);   // page_index != 0 (x86: rdpmc(index-1))
//   std::uint64_t read_timestamp();                      // the clock time_mult/shift refer to
// read_pmc is executed only when the page grants it (cap_user_rdpmc && index != 0): executing
// it otherwise faults (SIGSEGV on x86, SIGILL on arm64).
#pragma once

#include <linux/perf_event.h>

#include <cstdint>

namespace glint::os::linux_ {

// ---- pure arithmetic: tested on every host ---------------------------------------------------

// Sign-extends a raw counter of `width` bits (pmc_width). The kernel arms counters with a
// negative start value, so the raw value is signed; width 0 or >= 64 leaves it as is.
constexpr std::int64_t sign_extend(std::uint64_t raw, unsigned width) {
    if (width == 0 || width >= 64) return static_cast<std::int64_t>(raw);
    const unsigned shift = 64 - width;
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
// timestamp `cyc` read inside the seqlock.
constexpr std::uint64_t clock_delta_ns(std::uint64_t cyc, const ClockConversion& c) {
    if (c.short_clock) cyc = c.cycles + ((cyc - c.cycles) & c.mask);
    const std::uint64_t quot = cyc >> c.shift;
    const std::uint64_t rem = cyc & ((std::uint64_t{1} << c.shift) - 1);
    return c.offset + quot * c.mult + ((rem * c.mult) >> c.shift);
}

// count * enabled / running without overflowing the product (the header's quot/rem form).
// running == 0 means never scheduled: the caller must report "not measured", not call this.
constexpr std::uint64_t scale_count(std::uint64_t count, std::uint64_t enabled,
                                    std::uint64_t running) {
    const std::uint64_t quot = count / running;
    const std::uint64_t rem = count % running;
    return quot * enabled + static_cast<std::uint64_t>(
                                (static_cast<unsigned __int128>(rem) * enabled) / running);
}

// ---- the seqlock read --------------------------------------------------------------------------

struct PageReading {
    std::int64_t count = 0;     // offset + sign-extended counter (only when user_read)
    std::uint64_t enabled = 0;  // time_enabled, extrapolated to now when cap_user_time
    std::uint64_t running = 0;  // time_running, likewise (only while index != 0)
    std::uint32_t index = 0;    // the page's index at the read; 0: not on a counter now
    bool user_read = false;     // false: this counter must be read with read(2) instead
};

namespace detail {
template <class T>
[[gnu::always_inline]] inline T load(const T& field) {
    return *static_cast<const volatile T*>(&field);
}
[[gnu::always_inline]] inline void compiler_barrier() { asm volatile("" ::: "memory"); }
}  // namespace detail

// Reads the counter behind `page` and, when `WithTimes`, its extrapolated enabled/running
// times. Retries while the kernel's seqlock changes; never returns a torn value.
// Returns user_read == false (and no count) when the page does not grant a user read.
template <class Arch, bool WithTimes = true>
[[gnu::always_inline]] inline PageReading read_page(const perf_event_mmap_page* page) {
    PageReading r;
    std::uint32_t seq;
    do {
        seq = detail::load(page->lock);
        detail::compiler_barrier();
        if constexpr (WithTimes) {
            r.enabled = detail::load(page->time_enabled);
            r.running = detail::load(page->time_running);
        }
        const std::uint64_t caps = detail::load(page->capabilities);
        const bool can_rdpmc = (caps >> 2) & 1;  // cap_user_rdpmc
        r.index = detail::load(page->index);
        r.user_read = can_rdpmc && r.index != 0;
        if constexpr (WithTimes) {
            if ((caps >> 3) & 1) {  // cap_user_time
                ClockConversion c;
                c.offset = detail::load(page->time_offset);
                c.mult = detail::load(page->time_mult);
                c.shift = detail::load(page->time_shift);
                c.short_clock = (caps >> 5) & 1;  // cap_user_time_short
                if (c.short_clock) {
                    c.cycles = detail::load(page->time_cycles);
                    c.mask = detail::load(page->time_mask);
                }
                const std::uint64_t delta = clock_delta_ns(Arch::read_timestamp(), c);
                r.enabled += delta;
                if (r.index != 0) r.running += delta;
            }
        }
        if (r.user_read) {
            const std::int64_t offset = detail::load(page->offset);
            const unsigned width = detail::load(page->pmc_width);
            r.count = offset + sign_extend(Arch::read_pmc(r.index), width);
        }
        detail::compiler_barrier();
    } while (detail::load(page->lock) != seq);
    return r;
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
