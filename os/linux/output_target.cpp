// os/files.hpp on Linux, the paths: what an output path names (lstat/stat, each symlink hop
// checked as the kernel's fs.protected_symlinks would), whether it can be written, and whether
// two outputs name one file.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <string>
#include <vector>

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

std::string refusal(const std::string& link, uid_t owner, const std::string& dir,
                    const std::string& given) {
    return "refusing to follow the symlink " + quoted(link) +
           (link == given ? "" : " on the way to " + quoted(given)) + ": user " +
           std::to_string(owner) + " owns it in the sticky, world-writable directory " +
           quoted(dir) + " (it could point anywhere); remove it or choose another path";
}

std::string joined(const std::string& dir, const std::string& name) {
    return dir.empty() ? name : dir == "/" ? "/" + name : dir + "/" + name;
}

// Every symlink met on the way to `given` (a directory of the path, or within a link's own
// target, to any depth) is held to may_follow in the directory it sits in, so a link another
// user planted in a sticky world-writable directory is refused wherever it stands. Stops at
// the first name that does not exist (nothing further can be followed) and at a descriptor's
// name. False with `problem` set when a link is refused.
bool links_on_the_way(const std::string& given, std::string& problem) {
    if (named_descriptor(given)) return true;
    std::vector<std::string> todo;  // the names still to walk, the next one last
    const auto push = [&todo](const std::string& path) {
        std::vector<std::string> names;
        for (std::size_t start = 0; start <= path.size();) {
            const std::size_t end = std::min(path.find('/', start), path.size());
            if (end > start) names.push_back(path.substr(start, end - start));
            start = end + 1;
        }
        todo.insert(todo.end(), names.rbegin(), names.rend());
    };
    push(given);
    std::string at = !given.empty() && given[0] == '/' ? "/" : "";
    for (int hops = 0; !todo.empty();) {
        const std::string name = todo.back();
        todo.pop_back();
        if (name == ".") continue;
        const std::string next = joined(at, name);
        struct stat st {};
        if (name != ".." && ::lstat(next.c_str(), &st) != 0) return true;  // nothing further
        if (name == ".." || !S_ISLNK(st.st_mode)) {
            at = next;
            continue;
        }
        if (named_descriptor(next)) return true;
        struct stat dir {};
        if (::stat(at.empty() ? "." : at.c_str(), &dir) != 0 || !may_follow(st, dir)) {
            problem = refusal(next, st.st_uid, at.empty() ? "." : at, given);
            return false;
        }
        char buf[4096];
        const ssize_t n = ::readlink(next.c_str(), buf, sizeof buf - 1);
        if (n <= 0 || ++hops > 40) return true;  // said by the walk of the last name, or stat
        const std::string target(buf, static_cast<std::size_t>(n));
        if (target[0] == '/') at = "/";
        push(target);
    }
    return true;
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
            problem = refusal(path, st.st_uid, dir_of(path), path);
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

std::optional<std::string> links_problem(const std::string& path) {
    std::string problem;
    if (links_on_the_way(path, problem)) return std::nullopt;
    return problem;
}

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
    if (!links_on_the_way(path, problem) || !follow_links(target.path, problem))
        return std::nullopt;
    if (auto fd = named_descriptor(target.path)) {
        target.mode = OutputMode::descriptor;
        target.fd = *fd;
        return target;
    }
    // Absolute from here on: a case that calls chdir() does not move the run's outputs.
    char cwd[PATH_MAX];
    if (target.path[0] != '/' && ::getcwd(cwd, sizeof cwd)) target.path = joined(cwd, target.path);
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
