#include "os/linux/fifo_open.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace glint::os::detail {

int open_in_place(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISFIFO(st.st_mode))
        return ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
    for (int waited_ms = 0;; waited_ms += 50) {
        const int fd =
            ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (fd >= 0) {
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
            return fd;
        }
        if (errno != ENXIO || waited_ms >= kFifoReaderWaitMs) return -1;
        ::usleep(50000);
    }
}

std::string no_fifo_reader() {
    return "no process opened the FIFO for reading within " +
           std::to_string(kFifoReaderWaitMs / 1000) + " s (start its reader first)";
}

}  // namespace glint::os::detail
