// os/files.hpp: the files a run writes and reads, so that no path a user gives can damage the
// system and no crash leaves a truncated document.
//
// resolve_output writes a path one of three ways: replace (a regular file or nothing yet: a new
// exclusive temporary in the same directory, flushed, renamed over; a symlink's final target is
// replaced), in_place (a FIFO, character device or socket: written, never created or removed; a
// FIFO without a reader is refused after 10 s), descriptor ("-", /dev/stdout, /dev/stderr,
// /dev/fd/N, /proc/self/fd/N). Anything else is refused with the reason, as is a symlink the
// fs.protected_symlinks rule would not follow, root included, wherever it stands in the path.
// Rationale and details: docs/rationale.md, "os/files.hpp".
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace glint::os {

enum class OutputMode { replace, in_place, descriptor };

struct OutputTarget {
    std::string given;  // as the user typed it (what messages name)
    std::string path;   // what is written, or renamed over: a symlink's final target
    OutputMode mode = OutputMode::replace;
    int fd = -1;  // descriptor mode: the descriptor written to
};

// The kind of file a path names, as far as the output rules care.
enum class FileKind {
    absent,
    regular,
    directory,
    fifo,
    character_device,
    block_device,
    socket,
    other
};

// The pure rule behind resolve_output: how a path of `kind` is written, or nullopt when it
// must be refused.
std::optional<OutputMode> output_mode_for(FileKind kind);

// The descriptor a path names by itself: "-" and /dev/stdout 1, /dev/stderr 2, /dev/fd/N and
// /proc/self/fd/N N; nullopt for any other path.
std::optional<int> named_descriptor(std::string_view path);

// Classifies `path` (following symlinks). On refusal returns nullopt and sets `problem` to one
// sentence naming the path and what stands in the way. A file's path is made absolute (the
// working directory now), so a later chdir() does not move it.
std::optional<OutputTarget> resolve_output(const std::string& path, std::string& problem);

// Checked before measuring: replace targets create and remove a temporary file in the target's
// directory (so a directory nobody may create files in, /proc for root too, is found now), and
// a file in a sticky directory is replaced only when the caller owns it or (not root) the
// directory, or (root, as fs.protected_regular) the directory's owner owns it; in-place targets
// must grant write access. Returns the problem, or nullopt.
std::optional<std::string> probe_output(const OutputTarget& target);

// resolve_output, then probe_output: the target an output flag will write, checked before
// anything is measured. nullopt with `problem` set when either refuses.
inline std::optional<OutputTarget> resolve_writable_output(const std::string& path,
                                                           std::string& problem) {
    std::optional<OutputTarget> target = resolve_output(path, problem);
    if (!target) return std::nullopt;
    if (auto unwritable = probe_output(*target)) {
        problem = std::move(*unwritable);
        return std::nullopt;
    }
    return target;
}

// Whether two outputs write one file, so that one would overwrite the other: the same
// descriptor, the same existing regular file (device and inode: hard links, symlinks, other
// spellings, a descriptor open on it), or, for files yet to be made, the same path once the
// directory's real path is taken. FIFOs and devices (/dev/null) may be shared.
bool same_output(const OutputTarget& a, const OutputTarget& b);

// Whether writing `target` would replace or overwrite the existing regular file `input`.
bool overwrites_input(const OutputTarget& target, const std::string& input);

// The first two outputs that write one file, as one sentence naming both flags and the path
// ("--bench-json and --bench-html both write 'x.json'; give each its own file"); nullopt when
// every output has a file of its own. Each entry: the flag, and its target (null: not given).
std::optional<std::string> shared_output_problem(
    const std::vector<std::pair<std::string, const OutputTarget*>>& outputs);

// Writes `text` to the target as its mode says. An existing regular file keeps its permission
// bits. Returns nullopt on success, otherwise the problem (naming the path and the system's
// reason); a failed replace removes its temporary file and leaves the target as it was.
std::optional<std::string> write_output(const OutputTarget& target, std::string_view text);

// "256 MiB" from 1 MiB up (rounded up), "900 bytes" below: sizes in messages.
std::string size_words(std::size_t bytes);

// Reads a whole regular file of at most `max_bytes`. A FIFO, a device, a directory or a larger
// file is refused without blocking on it (and without reading it). Returns the problem (one
// sentence naming the path), or nullopt with `text` filled.
struct FileProblem {
    std::string message;
    bool missing = false;    // the path names nothing
    bool too_large = false;  // larger than max_bytes
};
std::optional<FileProblem> read_regular_file(const std::string& path, std::size_t max_bytes,
                                             std::string& text);

// The first `max_bytes` of a regular file (the refusals of read_regular_file, but a larger file
// is no error), up to its first NUL byte: text glint writes holds none, so what follows one is a
// planted or sparse file, or a tail a crash left unwritten. `file_size`: the file's size.
std::optional<FileProblem> read_text_head(const std::string& path, std::size_t max_bytes,
                                          std::string& text, std::size_t& file_size);

// ---- a directory kept for the caller (glint-compare --keep) ---------------------------------
// The refusal of the first symlink on the way to `path` (any component, any depth) that
// resolve_output would not follow, or nullopt.
std::optional<std::string> links_problem(const std::string& path);

// Whether no other user can change what is in `dir`: a directory reached through no link
// links_problem refuses, owned by the caller (or root), that neither group nor others may write.
// The problem (naming `dir` and the fix), or nullopt.
std::optional<std::string> private_directory_problem(const std::string& dir);

// Creates or opens the regular file `path` (never through a symlink) and locks it exclusively
// (flock, released when the descriptor closes). The descriptor; -1 with `busy` set when another
// process holds the lock, or with `problem` naming the path and the reason.
int lock_file(const std::string& path, bool& busy, std::string& problem);
void unlock_file(int fd);  // closes what lock_file returned

// ---- async-signal-safe output --------------------------------------------------------------
// For a run that ends where no allocation may happen (a fatal signal, a hung case): every name
// is prepared beforehand; emergency_* use only open, write, fsync, rename and close.
struct EmergencyOutput {
    OutputMode mode = OutputMode::replace;
    char path[4096] = {};  // the target (replace, in place)
    char temp[4096] = {};  // replace: a fresh unpredictable name in the target's directory
    char dir[4096] = {};   // replace: the directory, flushed after the rename
    int fd = -1;           // descriptor mode
    bool ready = false;
};
EmergencyOutput prepare_emergency_output(const OutputTarget& target);
// Returns a descriptor to write to, or -1. A FIFO without a reader is not waited for.
int emergency_open(const EmergencyOutput& out) noexcept;
bool emergency_put(int fd, const char* data, std::size_t size) noexcept;
// Flushes and closes `fd`; a replace target is renamed into place. True when it is there.
bool emergency_commit(const EmergencyOutput& out, int fd, bool written) noexcept;

// ---- the journal ---------------------------------------------------------------------------
// A file beside a replace target, named "<target>.journal.XXXXXX" (unpredictable, created
// exclusively), that a run appends to while it is in progress and holds locked (flock) until
// it ends. Lines are appended whole with write(2) (async-signal-safe); sync() reaches the disk.
class JournalFile {
  public:
    JournalFile() = default;
    ~JournalFile();
    JournalFile(JournalFile&& other) noexcept;
    JournalFile& operator=(JournalFile&& other) noexcept;

    // Creates the journal of `target` (a replace target). Returns nullopt with `problem` set
    // when it cannot be created.
    static std::optional<JournalFile> create(const OutputTarget& target, std::string& problem);

    bool append(std::string_view line) noexcept;  // the line and a newline, whole
    bool sync() noexcept;                         // fsync
    void remove() noexcept;                       // unlink, then close (the lock goes with it)
    const std::string& path() const { return path_; }
    bool open() const { return fd_ >= 0; }

  private:
    int fd_ = -1;
    std::string path_;
    char unlink_path_[4096] = {};
};

// Journals of `target` that no running process holds: left by a run that was killed.
std::vector<std::string> stale_journals(const OutputTarget& target);

// True when a running process holds the journal at `path` (its writer's lock); false when
// nobody does or it cannot be told (no such file, no OS back end).
bool journal_held(const std::string& path);

}  // namespace glint::os
