// os/linux/perf_ring.hpp: parsing the records of a perf ring buffer's data area.
//
// The kernel writes records (struct perf_event_header, then the body) at data_head, modulo
// the data area's size (a power of 2); a record can wrap around the end of the area. The
// reader owns [tail, head): it parses those records and then publishes tail = head
// (os/linux/sampling.cpp does the acquire/release on data_head/data_tail). This file parses
// only: it never touches the control page, so tests feed it fake buffers.
//
// Records understood: PERF_RECORD_SAMPLE with a sample_type made of PERF_SAMPLE_IP, TID,
// PERIOD and CALLCHAIN (the fields in the kernel's order), PERF_RECORD_LOST,
// PERF_RECORD_THROTTLE and PERF_RECORD_UNTHROTTLE; any other type is counted in `other` and
// skipped by its size. A record whose size is below the header's, not a multiple of 8, beyond
// head, or too short for its fields counts one `malformed` and ends the parse: everything up to
// head is given back (a reader cannot resynchronise inside a corrupt stream).
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
