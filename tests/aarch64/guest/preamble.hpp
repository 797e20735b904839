// tests/aarch64/guest/preamble.hpp: what the guest's counter-path tests share -- the arm64 PMU,
// the guest's events and loops, the mmap-page reader, and their short names.
#pragma once

#include "arch/aarch64/pmu.hpp"
#include "guest_events.hpp"
#include "loops.hpp"
#include "os/linux/mmap_page.hpp"

namespace aarch64 = glint::arch::aarch64;
namespace linux_ = glint::os::linux_;
using glint::guest::Events;
using glint::guest::EventSpec;
using glint::guest::OpenOptions;
