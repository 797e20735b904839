// <glint/detail/os/linux/x86_64/page_policy.hpp>: how x86-64 Linux's perf pages are read from
// user space, as the policy read_page takes on top of the arch's (x86_64/pmu.hpp).
//
// Linux publishes an index for every event on a counter, user rdpmc granted or not (the rdpmc
// sysfs setting decides that), so each read checks cap_user_rdpmc: the policy adds nothing.
#pragma once

namespace glint::os::linux_::x86_64 {

template <class ArchPolicy>
struct PagePolicy : ArchPolicy {};

}  // namespace glint::os::linux_::x86_64
