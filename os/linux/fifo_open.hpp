// os/linux/fifo_open.hpp: opening an in_place output (os/files.hpp) without blocking for ever.
#pragma once

#include <string>

namespace glint::os::detail {

// How long a FIFO without a reader is waited for.
inline constexpr int kFifoReaderWaitMs = 10000;

// Opens `path` for writing. A FIFO is opened without blocking, retried every 50 ms until a
// reader has it open or kFifoReaderWaitMs have passed (then -1 with errno ENXIO); the
// descriptor returned blocks as usual. Anything else is opened as open(2) would.
int open_in_place(const std::string& path);

// The reason for a FIFO nobody opened for reading in time.
std::string no_fifo_reader();

}  // namespace glint::os::detail
