// os/other/interrupts.hpp: what os/other/process.cpp (shared by the back ends without a
// self-pipe: os/other/, os/windows/) and each one's process_control.cpp say to each other.
// record and clear are async-signal-safe (one lock-free atomic).
#pragma once

namespace glint::os::interrupts {

void record(int sig) noexcept;  // keeps `sig` unless one was noted since clear()
void clear() noexcept;

// Registers `fn` to run on quick_exit(), where the C library has it (process_control.cpp).
void at_quick_exit(void (*fn)());

}  // namespace glint::os::interrupts
