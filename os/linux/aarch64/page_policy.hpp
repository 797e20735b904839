// <glint/detail/os/linux/aarch64/page_policy.hpp>: how arm64 Linux's perf pages are read from
// user space, as the policy read_page takes on top of the arch's (aarch64/pmu.hpp).
//
// arm64 Linux publishes a non-zero index only for an event EL0 may read
// (armv8pmu_user_event_idx returns 0 unless the event has user access, the same condition that
// sets cap_user_rdpmc), so a read that needs no times skips loading the capabilities.
#pragma once

namespace glint::os::linux_::aarch64 {

template <class ArchPolicy>
struct PagePolicy : ArchPolicy {
    static constexpr bool kIndexImpliesUserRead = true;
};

}  // namespace glint::os::linux_::aarch64
