// <glint/detail/hot_reader.hpp>: the inline reader of <glint/hot.hpp>: one slot of a group read
// with the OS's page protocol (<glint/detail/os/os.hpp>) and the arch's slot policy
// (<glint/detail/arch/arch.hpp>), and the fallback's signature (included by <glint/hot.hpp>).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <glint/detail/arch/arch.hpp>
#include <glint/detail/os/os.hpp>

namespace glint::hot::detail {

using Page = os::user_page::UserPage;

// Reads every one of `count` counters into counts[] and the group's descheduled time (the
// leader's time_enabled - time_running now) into descheduled_ns; out of line, may make a system
// call.
using SlowRead = void (*)(const void* context, std::int64_t* counts, std::size_t count,
                          std::int64_t& descheduled_ns);

// A page whose reads never grant a user read (index 0, no capabilities): the inline reader of
// a group that cannot be read inline points at it, so its first slot jumps to the fallback.
inline const Page kNeverReadable{};

// The calling thread's identity, as a Group records it at open and compares it on every read:
// the ABI's thread pointer where the OS keeps one per thread (one instruction: x86-64 a load of
// %fs:0, arm64 an mrs of TPIDR_EL0), else the address of this thread's own copy of a tag. A
// thread that starts after another ended may reuse its identity (its TLS block).
inline thread_local constinit char this_thread_tag = 0;
[[gnu::always_inline]] inline const void* this_thread() {
    if constexpr (os::user_page::kThreadPointerPerThread && arch::native::kHasThreadPointer)
        return arch::native::thread_pointer();
    else return &this_thread_tag;
}

// Slot `Slot`'s count; the leader's (slot 0) read also takes the published time_enabled and
// time_running inside its seqlock (two loads, no timestamp, no extrapolation) for
// descheduled_ns, which is current whenever the page grants the read (PageTimes::published).
template <std::size_t Slot>
[[gnu::always_inline]] inline bool read_slot(const Page* page, std::int64_t& out,
                                             std::int64_t& descheduled_ns) {
    if constexpr (!arch::native::kHasUserCounterReads) {
        (void)page;
        (void)out;
        (void)descheduled_ns;
        return false;
    } else {
        using Times = os::user_page::PageTimes;
        constexpr Times kTimes = Slot == 0 ? Times::published : Times::none;
        const auto r =
            os::user_page::read_page_with<os::user_page_policy<arch::native_slot<Slot>>, kTimes>(
                page);
        if (r.user_read) {  // nothing to keep otherwise: the fallback reads again
            out = r.count;
            if constexpr (Slot == 0)
                descheduled_ns = static_cast<std::int64_t>(r.enabled - r.running);
        }
        return r.user_read;
    }
}

template <std::size_t... I>
[[gnu::always_inline]] inline bool read_slots(const Page* const* pages, std::int64_t* counts,
                                              std::int64_t& descheduled_ns,
                                              std::index_sequence<I...>) {
    return (read_slot<I>(pages[I], counts[I], descheduled_ns) && ...);
}

}  // namespace glint::hot::detail
