// os/files.hpp on Linux: whether a running process holds a journal (the flock its writer takes,
// JournalFile::create), for --recover-journal's warning.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>

#include "os/files.hpp"

namespace glint::os {

bool journal_held(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return held;
}

}  // namespace glint::os
