// os/files.hpp on Linux: mkstemp + fsync + rename to replace, bounded reads, the
// async-signal-safe output, flock to tell a live journal from a stale one. Classifying a path
// (resolve_output, probe_output, same_output) is os/linux/output_target.cpp.
#include "os/files.hpp"
#include "os/linux/fifo_open.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "os/linux/file_ops.hpp"
#include "os/linux/sys.hpp"

namespace glint::os {
namespace {

using namespace detail;

// The mode a new file gets: 0666 less the process's umask (read without changing it for long).
mode_t new_file_mode() {
    const mode_t mask = ::umask(022);
    ::umask(mask);
    return 0666 & ~mask;
}

bool write_all(int fd, const char* data, std::size_t size) noexcept {
    while (size > 0) {
        const ssize_t n = linux_::sys().write(fd, data, size);  // the seam: tests fill the disk
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        data += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

void sync_dir(const std::string& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);  // best effort: some file systems refuse fsync on a directory
    ::close(fd);
}

void copy_name(char (&out)[4096], const std::string& in) {
    const std::size_t n = std::min(in.size(), sizeof out - 1);
    std::memcpy(out, in.data(), n);
    out[n] = '\0';
}

}  // namespace

std::optional<std::string> write_output(const OutputTarget& target, std::string_view text) {
    auto failed = [&](int error) {
        return "cannot write " + quoted(target.given) + ": " + reason(error);
    };
    if (target.mode == OutputMode::descriptor) {
        std::fflush(nullptr);  // what stdio holds for the descriptor goes first
        if (!write_all(target.fd, text.data(), text.size())) return failed(errno);
        return std::nullopt;
    }
    if (target.mode == OutputMode::in_place) {
        const int fd = detail::open_in_place(target.path);
        if (fd < 0)
            return errno == ENXIO
                       ? "cannot write " + quoted(target.given) + ": " + detail::no_fifo_reader()
                       : failed(errno);
        const bool ok = write_all(fd, text.data(), text.size());
        const int error = errno;
        ::close(fd);
        if (!ok) return failed(error);
        return std::nullopt;
    }
    // The permissions of the regular file replaced, never a set-id bit, nor those of whatever a
    // link planted at the path since resolve_output points to (rename replaces the link itself).
    struct stat existing {};
    const mode_t mode = ::lstat(target.path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)
                            ? (existing.st_mode & 0777)
                            : new_file_mode();
    std::string temp;
    const int fd = make_temp(target.path, temp);
    if (fd < 0) return failed(errno);
    bool ok =
        write_all(fd, text.data(), text.size()) && ::fchmod(fd, mode) == 0 && ::fsync(fd) == 0;
    int error = errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        error = errno;
    }
    if (ok && ::rename(temp.c_str(), target.path.c_str()) != 0) {
        ok = false;
        error = errno;
    }
    if (!ok) {
        ::unlink(temp.c_str());
        return failed(error);
    }
    sync_dir(dir_of(target.path));
    return std::nullopt;
}

namespace {

// read_regular_file (head false) and read_text_head (head true): a larger file is an error, or
// its first `max_bytes` are read; a head read stops at the first NUL byte.
std::optional<FileProblem> read_file(const std::string& path, std::size_t max_bytes, bool head,
                                     std::string& text, std::size_t& file_size) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        const int error = errno;
        return FileProblem{"cannot read " + quoted(path) + ": " + reason(error), error == ENOENT};
    }
    struct stat st {};
    std::optional<FileProblem> problem;
    text.clear();
    if (::fstat(fd, &st) != 0) {
        problem = FileProblem{"cannot read " + quoted(path) + ": " + reason(errno)};
    } else if (!S_ISREG(st.st_mode)) {
        problem = FileProblem{quoted(path) + " is " + kind_words(kind_of(st.st_mode)) +
                              ", not a regular file"};
    } else if (file_size = static_cast<std::size_t>(st.st_size); !head && file_size > max_bytes) {
        problem = FileProblem{quoted(path) + " is " + size_words(file_size) + ", more than the " +
                                  size_words(max_bytes) + " glint reads",
                              false, true};
    } else {
        char buf[65536];
        while (true) {
            const std::size_t want =
                head ? std::min(sizeof buf, max_bytes - text.size()) : sizeof buf;
            const ssize_t n = want == 0 ? 0 : ::read(fd, buf, want);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                problem = FileProblem{"cannot read " + quoted(path) + ": " + reason(errno)};
                break;
            }
            if (n == 0) break;
            const char* nul =
                head ? static_cast<const char*>(std::memchr(buf, '\0', static_cast<std::size_t>(n)))
                     : nullptr;
            text.append(buf,
                        nul ? static_cast<std::size_t>(nul - buf) : static_cast<std::size_t>(n));
            if (nul) break;
            if (text.size() > max_bytes) {  // grew while being read
                problem = FileProblem{quoted(path) + " grew past " + size_words(max_bytes) +
                                      " while it was read"};
                break;
            }
        }
    }
    ::close(fd);
    return problem;
}

}  // namespace

std::optional<FileProblem> read_regular_file(const std::string& path, std::size_t max_bytes,
                                             std::string& text) {
    std::size_t size = 0;
    return read_file(path, max_bytes, false, text, size);
}

std::optional<FileProblem> read_text_head(const std::string& path, std::size_t max_bytes,
                                          std::string& text, std::size_t& file_size) {
    return read_file(path, max_bytes, true, text, file_size);
}

EmergencyOutput prepare_emergency_output(const OutputTarget& target) {
    EmergencyOutput out;
    out.mode = target.mode;
    copy_name(out.path, target.path);
    if (target.mode == OutputMode::replace) {
        // A fresh unpredictable name, created and removed now, opened with O_EXCL later.
        std::string temp;
        const int fd = make_temp(target.path, temp);
        if (fd < 0) return out;
        ::close(fd);
        ::unlink(temp.c_str());
        copy_name(out.temp, temp);
        copy_name(out.dir, dir_of(target.path));
    }
    out.fd = target.fd;
    out.ready = true;
    return out;
}

int emergency_open(const EmergencyOutput& out) noexcept {
    if (!out.ready) return -1;
    switch (out.mode) {
        case OutputMode::descriptor:
            return out.fd;
        case OutputMode::in_place:
            return ::open(out.path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        case OutputMode::replace:
            return ::open(out.temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    }
    return -1;
}

bool emergency_put(int fd, const char* data, std::size_t size) noexcept {
    return write_all(fd, data, size);
}

bool emergency_commit(const EmergencyOutput& out, int fd, bool written) noexcept {
    if (fd < 0) return false;
    if (out.mode == OutputMode::descriptor) return written;
    if (out.mode == OutputMode::in_place) {
        ::close(fd);
        return written;
    }
    written = written && ::fsync(fd) == 0;
    written = ::close(fd) == 0 && written;
    if (!written || ::rename(out.temp, out.path) != 0) {
        ::unlink(out.temp);
        return false;
    }
    const int dir = ::open(out.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return true;
}

JournalFile::~JournalFile() {
    if (fd_ >= 0) ::close(fd_);
}

JournalFile::JournalFile(JournalFile&& other) noexcept { *this = std::move(other); }

JournalFile& JournalFile::operator=(JournalFile&& other) noexcept {
    if (this == &other) return *this;
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    std::memcpy(unlink_path_, other.unlink_path_, sizeof unlink_path_);
    other.fd_ = -1;
    return *this;
}

std::optional<JournalFile> JournalFile::create(const OutputTarget& target, std::string& problem) {
    JournalFile journal;
    std::string name = target.path + ".journal.XXXXXX";
    journal.fd_ = ::mkostemp(name.data(), O_CLOEXEC | O_APPEND);
    if (journal.fd_ < 0) {
        problem = "cannot create a journal beside " + quoted(target.given) + ": " + reason(errno);
        return std::nullopt;
    }
    if (::flock(journal.fd_, LOCK_EX | LOCK_NB) != 0) {
        problem = "cannot lock the journal " + quoted(name) + ": " + reason(errno);
        ::unlink(name.c_str());
        return std::nullopt;
    }
    journal.path_ = name;
    copy_name(journal.unlink_path_, name);
    sync_dir(dir_of(name));
    return journal;
}

bool JournalFile::append(std::string_view line) noexcept {
    if (fd_ < 0) return false;
    // One write of line + '\n' where it fits a small buffer, so a crash leaves whole lines.
    char small[4096];
    if (line.size() < sizeof small) {
        std::memcpy(small, line.data(), line.size());
        small[line.size()] = '\n';
        return write_all(fd_, small, line.size() + 1);
    }
    return write_all(fd_, line.data(), line.size()) && write_all(fd_, "\n", 1);
}

bool JournalFile::sync() noexcept { return fd_ >= 0 && ::fdatasync(fd_) == 0; }

void JournalFile::remove() noexcept {
    if (fd_ < 0) return;
    ::unlink(unlink_path_);
    ::close(fd_);
    fd_ = -1;
}

std::vector<std::string> stale_journals(const OutputTarget& target) {
    std::vector<std::string> found;
    if (target.mode != OutputMode::replace) return found;
    const std::string dir = dir_of(target.path);
    const std::string prefix = base_of(target.path) + ".journal.";
    DIR* d = ::opendir(dir.c_str());
    if (!d) return found;
    while (const dirent* entry = ::readdir(d)) {
        const std::string name = entry->d_name;
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string path =
            target.path.find('/') == std::string::npos ? name : dir + "/" + name;
        const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat st {};
        // A live run holds its journal locked; a journal nobody holds was left by a killed run.
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ::flock(fd, LOCK_SH | LOCK_NB) == 0)
            found.push_back(path);
        ::close(fd);
    }
    ::closedir(d);
    std::sort(found.begin(), found.end());
    return found;
}

}  // namespace glint::os
