// arch/arch.hpp: the one place that picks the ISA back end. Everything else uses
// glint::arch::native (the policy os/linux/mmap_page.hpp reads counters with) and the
// constants below. Nothing in arch/ knows about Linux.
#pragma once

#if defined(__x86_64__)
#include "arch/x86_64/pmu.hpp"
namespace glint::arch {
namespace native_ns = x86_64;
}
#elif defined(__aarch64__)
#include "arch/aarch64/pmu.hpp"
namespace glint::arch {
namespace native_ns = aarch64;
}
#else
#include "arch/generic/pmu.hpp"
namespace glint::arch {
namespace native_ns = generic;
}
#endif

namespace glint::arch {
// read_pmc(page_index), read_timestamp(), kName, kHasUserCounterReads.
using native = native_ns::Pmu;
// The policy <glint/hot.hpp> reads slot `Slot` of a group with (see each arch's SlotPmu).
template <std::size_t Slot>
using native_slot = native_ns::SlotPmu<Slot>;
}  // namespace glint::arch
