// os/files.hpp on Linux, the paths: what an output path names (lstat/stat, each symlink hop
// checked as the kernel's fs.protected_symlinks would), whether it can be written, and whether
// two outputs name one file.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <string>

#include "os/files.hpp"
#include "os/linux/file_ops.hpp"

namespace glint::os {
namespace {

using namespace detail;

// The kernel's fs.protected_symlinks rule, kept here for every caller, root included (glint
// follows links itself, so the kernel's check never sees them): in a sticky world-writable
// directory a symlink is followed only when its owner is the caller or the directory's owner.
bool may_follow(const struct stat& link, const struct stat& dir) {
    if (!(dir.st_mode & S_ISVTX) || !(dir.st_mode & S_IWOTH)) return true;
    return link.st_uid == ::geteuid() || link.st_uid == dir.st_uid;
}

// Follows a chain of symlinks to the path that is finally written (which may not exist yet),
// stopping at a name of a descriptor (/dev/stdout, /proc/self/fd/N): those are magic links.
// Each hop obeys may_follow; a link it refuses ends the walk with `problem` set.
bool follow_links(std::string& path, std::string& problem) {
    for (int hop = 0; hop < 40; ++hop) {
        if (named_descriptor(path)) return true;
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return true;
        struct stat dir {};
        if (::stat(dir_of(path).c_str(), &dir) != 0 || !may_follow(st, dir)) {
            problem = "refusing to follow the symlink " + quoted(path) + ": user " +
                      std::to_string(st.st_uid) +
                      " owns it in the sticky, world-writable directory " + quoted(dir_of(path)) +
                      " (it could point anywhere); remove it or choose another path";
            return false;
        }
        char buf[4096];
        const ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
        if (n < 0) {
            problem = "cannot follow the symlink " + quoted(path) + ": " + reason(errno);
            return false;
        }
        std::string next(buf, static_cast<std::size_t>(n));
        if (next.empty() || next[0] != '/') next = dir_of(path) + "/" + next;
        path = next;
    }
    problem = "too many levels of symlinks at " + quoted(path);
    return false;
}

// The existing regular file a target writes, as its device and inode; false when there is none.
bool regular_file_id(const OutputTarget& target, struct stat& st) {
    const int found = target.mode == OutputMode::descriptor ? ::fstat(target.fd, &st)
                                                            : ::stat(target.path.c_str(), &st);
    return found == 0 && S_ISREG(st.st_mode);
}

// A replace target's path with its directory's real path ("./a.json", "sub/../a.json" and an
// absolute spelling agree); the path as it is when the directory cannot be resolved.
std::string real_spelling(const std::string& path) {
    char dir[PATH_MAX];
    if (!::realpath(dir_of(path).c_str(), dir)) return path;
    return std::string(dir) + "/" + base_of(path);
}

}  // namespace

bool same_output(const OutputTarget& a, const OutputTarget& b) {
    if (a.mode == OutputMode::descriptor && b.mode == OutputMode::descriptor && a.fd == b.fd)
        return true;
    struct stat sa {
    }, sb{};
    if (regular_file_id(a, sa) && regular_file_id(b, sb) && sa.st_dev == sb.st_dev &&
        sa.st_ino == sb.st_ino)
        return true;
    return a.mode == OutputMode::replace && b.mode == OutputMode::replace &&
           real_spelling(a.path) == real_spelling(b.path);
}

bool overwrites_input(const OutputTarget& target, const std::string& input) {
    struct stat out {
    }, in{};
    return regular_file_id(target, out) && ::stat(input.c_str(), &in) == 0 &&
           out.st_dev == in.st_dev && out.st_ino == in.st_ino;
}

std::optional<OutputTarget> resolve_output(const std::string& path, std::string& problem) {
    if (path.empty()) {
        problem = "the output path is empty";
        return std::nullopt;
    }
    OutputTarget target{path, path, OutputMode::replace};
    if (!follow_links(target.path, problem)) return std::nullopt;
    if (auto fd = named_descriptor(target.path)) {
        target.mode = OutputMode::descriptor;
        target.fd = *fd;
        return target;
    }
    struct stat st {};
    FileKind kind = FileKind::absent;
    if (::stat(target.path.c_str(), &st) == 0) {
        kind = kind_of(st.st_mode);
    } else if (errno != ENOENT && errno != ENOTDIR) {  // ENOTDIR: said below, by the directory
        problem = "cannot write " + quoted(path) + ": " + reason(errno);
        return std::nullopt;
    }
    const auto mode = output_mode_for(kind);
    if (!mode) {
        problem = quoted(path) + " is " + kind_words(kind) + ", not a file glint can write";
        return std::nullopt;
    }
    target.mode = *mode;
    if (target.mode == OutputMode::replace) {
        const std::string dir = dir_of(target.path);
        struct stat ds {};
        if (::stat(dir.c_str(), &ds) != 0) {
            problem = "cannot write " + quoted(path) + ": directory " + quoted(dir) +
                      (errno == ENOENT ? " does not exist" : ": " + reason(errno));
            return std::nullopt;
        }
        if (!S_ISDIR(ds.st_mode)) {
            problem = "cannot write " + quoted(path) + ": " + quoted(dir) + " is not a directory";
            return std::nullopt;
        }
    }
    return target;
}

std::optional<std::string> probe_output(const OutputTarget& target) {
    switch (target.mode) {
        case OutputMode::descriptor: {
            const int flags = ::fcntl(target.fd, F_GETFL);
            if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
                return "cannot write " + quoted(target.given) + ": descriptor " +
                       std::to_string(target.fd) + " is not open for writing";
            return std::nullopt;
        }
        case OutputMode::in_place:
            if (::access(target.path.c_str(), W_OK) != 0)
                return "cannot write " + quoted(target.given) + ": " + reason(errno);
            return std::nullopt;
        case OutputMode::replace:
            break;
    }
    std::string temp;
    const int fd = make_temp(target.path, temp);
    if (fd < 0)
        return "cannot write " + quoted(target.given) + ": cannot create a file in " +
               quoted(dir_of(target.path)) + ": " + reason(errno);
    ::close(fd);
    ::unlink(temp.c_str());
    // A sticky directory (/tmp) lets only the file's owner or the directory's replace a file;
    // root, whom the kernel lets, is held to its fs.protected_regular rule instead: a file
    // another user (not the directory's owner) put there is not replaced.
    struct stat ds {
    }, fs{};
    const uid_t me = ::geteuid();
    if (::stat(dir_of(target.path).c_str(), &ds) == 0 && (ds.st_mode & S_ISVTX) &&
        ::stat(target.path.c_str(), &fs) == 0 && fs.st_uid != me &&
        (me == 0 ? fs.st_uid != ds.st_uid : ds.st_uid != me))
        return "cannot replace " + quoted(target.given) +
               ": another user owns it in a sticky directory; choose another path";
    return std::nullopt;
}

}  // namespace glint::os
