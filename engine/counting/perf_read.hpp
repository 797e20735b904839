// engine/counting/perf_read.hpp: how the hardware tier reads counters (--perf-read), the choice
// the counting layer's read paths make (read_path.hpp) and the tiers' request carries.
#pragma once

namespace glint::engine {

enum class PerfRead { automatic, rdpmc, syscall, compare };

}  // namespace glint::engine
