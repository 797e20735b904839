// os/linux/perf_ring.hpp: parsing the records of a perf ring buffer's data area, [tail, head).
// Parses only (never touches the control page), so tests feed it fake buffers.
//
// Understood: PERF_RECORD_SAMPLE (IP, TID, PERIOD, CALLCHAIN), LOST, THROTTLE, UNTHROTTLE; other
// types are counted in `other` and skipped. A record too short, misaligned or beyond head counts
// one `malformed` and ends the parse: everything up to head is given back.
// Rationale and details: docs/rationale.md, "os/linux/perf_ring.hpp".
#pragma once

#include <cstdint>

#include "os/sampling.hpp"

namespace glint::os::linux_ {

// The sample_type bits this parser can read.
std::uint64_t supported_sample_type();

// Parses the records in [tail, head) of `data` (its size a power of 2; positions are free-running
// byte counters, taken modulo size). Samples go to `sink` through `scratch` (reused, so a drain
// allocates only while stacks grow); counts accumulate in `counts`. Returns the new tail: head.
std::uint64_t parse_ring(const unsigned char* data, std::uint64_t size, std::uint64_t tail,
                         std::uint64_t head, std::uint64_t sample_type, SampleCounts& counts,
                         const SampleSink& sink, SampleRecord& scratch);

}  // namespace glint::os::linux_
