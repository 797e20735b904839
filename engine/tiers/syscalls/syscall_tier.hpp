// engine/tiers/syscalls/syscall_tier.hpp: --syscalls, the strace -c view in process.
//
// One group of syscall tracepoints: raw_syscalls:sys_enter leads (the "syscalls" total
// column) and each named syscall adds syscalls:sys_enter_<name> ("sc:<name>"), ids read from
// tracefs, inherit=1 (threads and children created after the open are counted). Counted per
// iteration with the perf tier's pass machinery (events::EventCounter): the bracket's own
// DISABLE ioctl enters the kernel while the group counts, and the interleaved empty brackets
// subtract exactly that, so a body making K write(2) calls reads sc:write = K.
// The columns are quantitative and shown by default once the tier opens (it opens only when
// asked). No tracefs, unreadable ids or too little privilege: the tier is unavailable, its
// columns are omitted and the runner prints why; the run still passes. One unknown syscall
// costs only its own column (— with the reason).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/tiers/tier.hpp"

namespace glint::engine {

namespace syscalls {
// Where the tier looks for tracefs (tests point it at a fake tree).
std::unique_ptr<CountingTier> make_syscall_tier(std::vector<std::string> tracefs_roots);
}  // namespace syscalls

std::unique_ptr<CountingTier> make_syscall_tier();

}  // namespace glint::engine
