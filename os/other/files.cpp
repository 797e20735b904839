// os/files.hpp without an OS back end: standard C++ only. Files are classified with
// std::filesystem and replaced through a randomly named temporary file and std::rename; nothing
// is flushed to disk (no fsync here), there is no async-signal-safe output and no journal.
#include "os/files.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace glint::os {
namespace {

namespace fs = std::filesystem;

FileKind kind_of(fs::file_type type) {
    switch (type) {
        case fs::file_type::not_found:
            return FileKind::absent;
        case fs::file_type::regular:
            return FileKind::regular;
        case fs::file_type::directory:
            return FileKind::directory;
        case fs::file_type::fifo:
            return FileKind::fifo;
        case fs::file_type::character:
            return FileKind::character_device;
        case fs::file_type::block:
            return FileKind::block_device;
        case fs::file_type::socket:
            return FileKind::socket;
        default:
            return FileKind::other;
    }
}

std::string temp_name(const fs::path& target) {
    std::random_device random;
    std::ostringstream name;
    name << "." << target.filename().string() << "." << std::hex << random() << random();
    return ((target.parent_path().empty() ? fs::path(".") : target.parent_path()) / name.str())
        .string();
}

std::optional<std::string> write_file(const std::string& path, std::string_view text) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return "cannot open '" + path + "'";
    bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    ok = std::fclose(f) == 0 && ok;
    if (!ok) return "cannot write '" + path + "'";
    return std::nullopt;
}

}  // namespace

std::optional<OutputTarget> resolve_output(const std::string& path, std::string& problem) {
    if (path.empty()) {
        problem = "the output path is empty";
        return std::nullopt;
    }
    OutputTarget target{path, path, OutputMode::replace};
    if (auto fd = named_descriptor(path)) {
        if (*fd != 1) {
            problem = "'" + path + "': this build writes only the standard output by descriptor";
            return std::nullopt;
        }
        target.mode = OutputMode::descriptor;
        target.fd = 1;
        return target;
    }
    std::error_code ec;
    fs::path p = path;
    for (int hop = 0; hop < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hop) {
        const fs::path next = fs::read_symlink(p, ec);
        p = next.is_absolute() ? next : p.parent_path() / next;
    }
    if (const fs::path absolute = fs::absolute(p, ec); !ec) p = absolute;  // chdir() moves nothing
    target.path = p.string();
    const auto mode = output_mode_for(kind_of(fs::status(p, ec).type()));
    if (!mode) {
        problem = "'" + path + "' is not a file glint can write";
        return std::nullopt;
    }
    target.mode = *mode;
    const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
    if (target.mode == OutputMode::replace && !fs::is_directory(dir, ec)) {
        problem = "cannot write '" + path + "': directory '" + dir.string() + "' does not exist";
        return std::nullopt;
    }
    return target;
}

std::optional<std::string> probe_output(const OutputTarget& target) {
    if (target.mode != OutputMode::replace) return std::nullopt;
    const std::string temp = temp_name(target.path);
    if (auto problem = write_file(temp, ""))
        return "cannot write '" + target.given + "': " + *problem;
    std::remove(temp.c_str());
    return std::nullopt;
}

bool same_output(const OutputTarget& a, const OutputTarget& b) {
    if (a.mode == OutputMode::descriptor || b.mode == OutputMode::descriptor)
        return a.mode == b.mode && a.fd == b.fd;
    if (a.mode != OutputMode::replace || b.mode != OutputMode::replace) return false;
    std::error_code ec;
    if (fs::equivalent(a.path, b.path, ec)) return true;
    return fs::weakly_canonical(a.path, ec) == fs::weakly_canonical(b.path, ec);
}

bool overwrites_input(const OutputTarget& target, const std::string& input) {
    std::error_code ec;
    return target.mode == OutputMode::replace && fs::equivalent(target.path, input, ec);
}

std::optional<std::string> write_output(const OutputTarget& target, std::string_view text) {
    if (target.mode == OutputMode::descriptor) {
        std::fflush(stdout);
        if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() ||
            std::fflush(stdout) != 0)
            return "cannot write '" + target.given + "' (the standard output)";
        return std::nullopt;
    }
    if (target.mode == OutputMode::in_place) return write_file(target.path, text);
    const std::string temp = temp_name(target.path);
    if (auto problem = write_file(temp, text)) {
        std::remove(temp.c_str());
        return problem;
    }
    if (std::rename(temp.c_str(), target.path.c_str()) != 0) {
        std::remove(temp.c_str());
        return "cannot rename a file over '" + target.given + "'";
    }
    return std::nullopt;
}

std::optional<FileProblem> read_regular_file(const std::string& path, std::size_t max_bytes,
                                             std::string& text) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (status.type() == fs::file_type::not_found)
        return FileProblem{"cannot read '" + path + "': no such file", true};
    if (status.type() != fs::file_type::regular)
        return FileProblem{"'" + path + "' is not a regular file"};
    if (const auto size = fs::file_size(path, ec); size > max_bytes)
        return FileProblem{"'" + path + "' is " + size_words(size) + ", more than the " +
                               size_words(max_bytes) + " glint reads",
                           false, true};
    std::ifstream in(path, std::ios::binary);
    if (!in) return FileProblem{"cannot read '" + path + "'"};
    std::ostringstream s;
    s << in.rdbuf();
    text = s.str();
    return std::nullopt;
}

std::optional<FileProblem> read_text_head(const std::string& path, std::size_t max_bytes,
                                          std::string& text, std::size_t& file_size) {
    std::error_code ec;
    if (fs::status(path, ec).type() != fs::file_type::regular)
        return FileProblem{"'" + path + "' is not a regular file"};
    file_size = static_cast<std::size_t>(fs::file_size(path, ec));
    std::ifstream in(path, std::ios::binary);
    text.assign(std::min(file_size, max_bytes), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    text.resize(std::min(text.find('\0'), text.size()));
    return std::nullopt;
}

EmergencyOutput prepare_emergency_output(const OutputTarget&) { return {}; }  // never ready
int emergency_open(const EmergencyOutput&) noexcept { return -1; }
bool emergency_put(int, const char*, std::size_t) noexcept { return false; }
bool emergency_commit(const EmergencyOutput&, int, bool) noexcept { return false; }

JournalFile::~JournalFile() = default;
JournalFile::JournalFile(JournalFile&& other) noexcept { *this = std::move(other); }
JournalFile& JournalFile::operator=(JournalFile&& other) noexcept {
    fd_ = other.fd_;
    path_ = std::move(other.path_);
    other.fd_ = -1;
    return *this;
}
std::optional<JournalFile> JournalFile::create(const OutputTarget&, std::string& problem) {
    problem = "no journal: this build has no OS back end for it";
    return std::nullopt;
}
bool JournalFile::append(std::string_view) noexcept { return false; }
bool JournalFile::sync() noexcept { return false; }
void JournalFile::remove() noexcept {}
// No owners nor links to check, no lock to take: a kept directory is what the path names.
std::optional<std::string> links_problem(const std::string&) { return std::nullopt; }
std::optional<std::string> private_directory_problem(const std::string& dir) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return "'" + dir + "' is not a directory";
    return std::nullopt;
}
int lock_file(const std::string&, bool& busy, std::string&) {
    busy = false;
    return 0;
}
void unlock_file(int) {}

std::vector<std::string> stale_journals(const OutputTarget&) { return {}; }
bool journal_held(const std::string&) { return false; }

}  // namespace glint::os
