// os/files.hpp on Linux: a directory kept for the caller (private_directory_problem) and the
// lock that keeps two processes from sharing one (lock_file).
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "os/files.hpp"
#include "os/linux/file_ops.hpp"

namespace glint::os {

std::optional<std::string> private_directory_problem(const std::string& dir) {
    using namespace detail;
    if (auto refused = links_problem(dir)) return refused;
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) return "cannot use " + quoted(dir) + ": " + reason(errno);
    if (!S_ISDIR(st.st_mode)) return quoted(dir) + " is not a directory";
    if (st.st_uid != ::geteuid() && st.st_uid != 0)
        return "user " + std::to_string(st.st_uid) + " owns " + quoted(dir) +
               " and could replace what is written there; choose a directory of your own";
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return quoted(dir) + " may be written by " +
               ((st.st_mode & S_IWOTH) ? "every user" : "its group") +
               ", who could replace what is written there; chmod go-w it or choose another";
    return std::nullopt;
}

int lock_file(const std::string& path, bool& busy, std::string& problem) {
    using namespace detail;
    busy = false;
    const int fd = ::open(path.c_str(),
                          O_RDWR | O_CREAT | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0) {
        problem = "cannot create " + quoted(path) + ": " +
                  (errno == ELOOP ? std::string("it is a symlink") : reason(errno));
        return -1;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        problem = quoted(path) + " is not a regular file";
        ::close(fd);
        return -1;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        busy = errno == EWOULDBLOCK;
        problem = "cannot lock " + quoted(path) + ": " + reason(errno);
        ::close(fd);
        return -1;
    }
    return fd;
}

void unlock_file(int fd) {
    if (fd >= 0) ::close(fd);
}

}  // namespace glint::os
