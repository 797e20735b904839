// engine/tiers/syscalls/syscall_tier.hpp: --syscalls, the strace -c view in process.
//
// One group of syscall tracepoints (raw_syscalls:sys_enter leads: column "syscalls"; each named
// syscall adds "sc:<name>"), inherited by threads and children made after the open, counted per
// iteration with the interleaved empty brackets subtracted: K write(2) calls read sc:write = K.
// Default columns once open. No tracefs or privilege: unavailable, columns omitted, the reason
// printed; an unknown syscall costs only its own column.
// Rationale and details: docs/rationale.md, "engine/tiers/syscalls/syscall_tier.hpp".
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
