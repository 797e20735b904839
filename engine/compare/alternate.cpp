#include "engine/compare/alternate.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string_view>

#include "engine/model/flag_value.hpp"
#include "engine/model/sanitize.hpp"
#include "os/files.hpp"
#include "os/process.hpp"
#include "os/program.hpp"

namespace glint::engine {
namespace fs = std::filesystem;
namespace {

constexpr const char* kMarker = ".glint-alternate";  // what makes DIR an earlier --alternate dir
constexpr int kMaxRuns = 1000;
constexpr int kRunsForInterval = 4;  // 4 runs a side: the runs' own medians reach a 95% interval

const char* kSyntax = "glint-compare --alternate=K [flags] BASE_PROGRAM NEW_PROGRAM [-- FLAGS]";

int positive(std::string_view flag, std::string_view value, int max) {
    int n = 0;
    bool ok = !value.empty() && value.size() <= 6;
    for (char c : value) {
        if (c < '0' || c > '9') ok = false;
        else n = n * 10 + (c - '0');
    }
    if (!ok || n < 1 || n > max)
        throw UsageError(std::string(flag) + ": '" + std::string(value) +
                         "' is not a whole number from 1 to " + std::to_string(max) + ": " +
                         std::string(flag) + "=4");
    return n;
}

bool names(std::string_view flag, std::string_view name) {
    return flag == name || (flag.size() > name.size() && flag.substr(0, name.size()) == name &&
                            flag[name.size()] == '=');
}

bool has_flag(const std::vector<std::string>& flags, std::string_view name) {
    for (const auto& f : flags)
        if (names(f, name)) return true;
    return false;
}

bool looks_like_documents(std::string_view arg) {
    return arg.find(',') != std::string_view::npos ||
           (arg.size() >= 5 && arg.substr(arg.size() - 5) == ".json");
}

std::string side_file(const std::string& dir, const std::string& side, int index, const char* ext) {
    return (fs::path(dir) / (side + "-" + std::to_string(index) + ext)).string();
}

// The last lines of a log (at most `lines`, each cut to 300 characters), indented. Only its
// last 64 KiB are read, whatever the log's size or the length of its lines.
std::string log_tail(const std::string& path, std::size_t lines) {
    constexpr std::streamoff kTailBytes = 64 * 1024;
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    const std::streamoff size = in ? static_cast<std::streamoff>(in.tellg()) : 0;
    const std::streamoff from = size > kTailBytes ? size - kTailBytes : 0;
    std::string text(static_cast<std::size_t>(std::max<std::streamoff>(size - from, 0)), '\0');
    in.seekg(from);
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
    if (!text.empty() && text.back() == '\n') text.pop_back();
    std::vector<std::string_view> last;  // newest first
    std::size_t end = text.size();
    while (last.size() < lines && !text.empty()) {
        const std::size_t nl = text.rfind('\n', end == 0 ? 0 : end - 1);
        const std::size_t begin = nl == std::string::npos || end == 0 ? 0 : nl + 1;
        // A line begun before the part read is shown from where the part begins.
        last.push_back(std::string_view(text).substr(begin, end - begin).substr(0, 300));
        if (begin == 0) break;
        end = nl;
    }
    std::string out;
    for (auto it = last.rbegin(); it != last.rend(); ++it)
        out += "    " + sanitize::terminal(std::string(*it)) + "\n";
    return out.empty() ? "    (the log is empty)\n" : out;
}

std::string size_text(double bytes) {
    char buf[48];
    if (bytes < 1024 * 1024) std::snprintf(buf, sizeof buf, "%.0f KB", bytes / 1024);
    else std::snprintf(buf, sizeof buf, "%.1f MB", bytes / (1024 * 1024));
    return buf;
}

// The files an earlier --alternate run left in DIR (documents, logs, the marker).
bool ours(const std::string& name) {
    static const std::regex pattern(R"((base|new)-[0-9]+\.(json|log))");
    return name == kMarker || std::regex_match(name, pattern);
}

}  // namespace

AlternateArgs take_alternate_flags(int argc, char** argv) {
    AlternateArgs out;
    AlternateRequest& r = out.request;
    bool keep_given = false, dashes = false;
    std::vector<std::string_view> positional;
    for (int i = 0; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        const auto eq = arg.find('=');
        const std::string_view name = arg.substr(0, eq),
                               value = eq == std::string_view::npos ? "" : arg.substr(eq + 1);
        if (i == 0) {
            out.rest.push_back(argv[i]);
        } else if (dashes) {
            r.flags.emplace_back(arg);
        } else if (arg == "--") {
            dashes = true;
        } else if (name == "--alternate") {
            r.runs = positive(name, value, kMaxRuns);
        } else if (name == "--repeat") {
            r.repeat = positive(name, value, kMaxRuns);
        } else if (name == "--keep") {
            if (value.empty()) throw UsageError("--keep: needs a value: --keep=DIR");
            if (value.find(',') != std::string_view::npos)
                throw UsageError("--keep: '" + std::string(value) +
                                 "' has a comma, which separates a side's documents: " +
                                 "choose a directory name without one");
            r.keep = std::string(value);
            keep_given = true;
        } else {
            if (arg.empty() || arg[0] != '-') positional.push_back(arg);
            out.rest.push_back(argv[i]);
        }
    }
    for (const char* arg : out.rest)
        if (std::string_view(arg) == "--help" || std::string_view(arg) == "-h")
            return out;  // --help wins
    if (!r.active()) {
        if (r.repeat || keep_given || dashes)
            throw UsageError(std::string(r.repeat     ? "--repeat"
                                         : keep_given ? "--keep"
                                                      : "-- FLAGS") +
                             ": applies to --alternate only: " + kSyntax);
        return out;
    }
    for (std::string_view owned : {"--bench-json", "--bench-baseline"})
        if (has_flag(r.flags, owned))
            throw UsageError("-- FLAGS: " + std::string(owned) +
                             " is glint-compare --alternate's own (each run writes " +
                             "DIR/base-I.json or DIR/new-I.json and the sides are compared after): "
                             "leave it out");
    if (r.repeat && has_flag(r.flags, "--bench-repeat"))
        throw UsageError(
            "--repeat and -- FLAGS' --bench-repeat both say how many repetitions: give one");
    for (auto p : positional)
        if (looks_like_documents(p))
            throw UsageError("--alternate runs two programs, not documents ('" + std::string(p) +
                             "'): " + kSyntax + "; compare documents without --alternate");
    if (positional.size() != 2)
        throw UsageError("--alternate needs two programs, got " +
                         std::to_string(positional.size()) + ": " + kSyntax);
    return out;
}

std::vector<std::string> program_argv(const AlternateRequest& request, const std::string& program,
                                      const std::string& json) {
    std::vector<std::string> argv{program};
    if (!has_flag(request.flags, "--bench")) argv.emplace_back("--bench");
    if (!has_flag(request.flags, "--bench-repeat"))
        argv.push_back("--bench-repeat=" + std::to_string(request.repeat.value_or(3)));
    argv.push_back("--bench-json=" + json);
    argv.insert(argv.end(), request.flags.begin(), request.flags.end());
    return argv;
}

const char* alternate_usage() {
    return R"(
  glint-compare --alternate=K [flags] BASE_PROGRAM NEW_PROGRAM [-- FLAGS]
runs the two programs in turn, base, new, base, new, ... K times each (8 recommended: 4 reach a
95% interval from the runs only as their full range), each as PROGRAM --bench --bench-repeat=R --bench-json=DIR/base-I.json FLAGS,
then compares the sides as above (same formats, gate and exit status). docs/ci.md: the recipe.
  --alternate=K            runs per program (8 recommended)
  --repeat=R               --bench-repeat of every run (default 3; or give it in FLAGS)
  --keep=DIR               keep the documents and logs in DIR (else a temporary directory)
)";
}

Alternation::~Alternation() {
    if (lock_ >= 0) os::unlock_file(lock_);
    if (dir_.empty()) return;
    if (temporary_ && status_ && *status_ != 2) {
        std::error_code ec;
        fs::remove_all(dir_, ec);
        return;
    }
    if (temporary_ || !status_ || *status_ == 2)
        std::fprintf(stderr, "glint-compare: the runs' documents and logs are kept in %s\n",
                     sanitize::terminal(dir_).c_str());
}

bool Alternation::prepare_dir(std::string& problem) {
    std::error_code ec;
    const auto refuse = [&](const std::string& why) {  // `why` follows "--keep='DIR'"
        problem = "--keep='" + request_.keep + "'" + why;
        return false;
    };
    if (request_.keep.empty()) {
        const fs::path root = fs::temp_directory_path(ec);
        if (ec)
            return problem = "no temporary directory: " + ec.message() + "; give --keep=DIR", false;
        std::random_device random;
        for (int attempt = 0; attempt < 100 && dir_.empty(); ++attempt) {
            char name[32];
            std::snprintf(name, sizeof name, "glint-alternate-%08x",
                          static_cast<unsigned>(random()));
            if (fs::create_directory(root / name, ec)) dir_ = (root / name).string();
        }
        if (dir_.empty())
            return problem = "cannot create a directory in " + root.string() + "; give --keep=DIR",
                   false;
        fs::permissions(dir_, fs::perms::owner_all, ec);
        temporary_ = true;
    } else {
        // No link another user planted on the way, and nobody else may write in DIR: the
        // runs' files are made there by name.
        if (auto refused = os::links_problem(request_.keep)) return refuse(": " + *refused);
        const fs::path dir(request_.keep);
        if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
            return refuse(" is not a directory: choose a new or empty directory");
        if (!fs::exists(dir, ec)) {
            fs::create_directories(dir, ec);
            if (ec) return refuse(": cannot create it: " + ec.message());
            fs::permissions(dir, fs::perms::owner_all, ec);
        }
        if (auto unsafe = os::private_directory_problem(request_.keep))
            return refuse(": " + *unsafe);
        const bool earlier = fs::is_regular_file(fs::symlink_status(dir / kMarker, ec));
        for (const auto& entry : fs::directory_iterator(dir, ec))
            if (!earlier)
                return refuse(" holds files (" + entry.path().filename().string() +
                              ") and is not an earlier --alternate directory: choose a new or "
                              "empty directory");
    }
    const std::string marker =
        (fs::path(request_.keep.empty() ? dir_ : request_.keep) / kMarker).string();
    bool busy = false;
    lock_ = os::lock_file(marker, busy, problem);
    if (lock_ < 0) {
        if (busy)
            return refuse(": another glint-compare --alternate is running with it (it holds " +
                          marker + " locked): wait for it to end or choose another directory");
        return false;
    }
    if (dir_.empty()) dir_ = request_.keep;
    for (const auto& entry : fs::directory_iterator(dir_, ec))
        if (ours(entry.path().filename().string()) && entry.path().filename() != kMarker)
            fs::remove(entry.path(), ec);  // an earlier run's documents and logs
    std::ofstream out(marker, std::ios::trunc);
    out << "glint-compare --alternate=" << request_.runs
        << ": base-I.json, new-I.json and their logs\n";
    if (!out) return problem = "cannot write in '" + dir_ + "'", false;
    return true;
}

int Alternation::run_one(const std::string& program, const std::string& side, int index,
                         double& seconds) {
    const std::string json = side_file(dir_, side, index, ".json"),
                      log = side_file(dir_, side, index, ".log");
    const auto start = std::chrono::steady_clock::now();
    const os::ProgramEnd end = os::run_program(program_argv(request_, program, json), log);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (end.killed)
        std::fprintf(stderr,
                     "glint-compare: %s run %d of %d, '%s', did not end within %g s of %s: "
                     "killed (SIGKILL), with the processes it started\n",
                     side.c_str(), index, request_.runs, sanitize::terminal(program).c_str(),
                     os::kInterruptGraceS, os::signal_name(end.interrupted).c_str());
    if (end.interrupted) return end.interrupted;
    std::string failure;
    std::error_code ec;
    if (!end.started) failure = end.problem;
    else if (end.signal) failure = end.problem;
    else if (end.exit_code != 0) failure = "exited with status " + std::to_string(end.exit_code);
    else if (!fs::is_regular_file(json, ec) || fs::file_size(json, ec) == 0)
        failure = "exited 0 but wrote no document " + json + " (does it take --bench-json?)";
    if (failure.empty()) return 0;
    std::fprintf(stderr, "glint-compare: error: %s run %d of %d, '%s': %s; the end of %s:\n%s",
                 side.c_str(), index, request_.runs, sanitize::terminal(program).c_str(),
                 sanitize::terminal(failure).c_str(), sanitize::terminal(log).c_str(),
                 log_tail(log, 12).c_str());
    return -1;
}

void Alternation::stop_by(int sig, const std::string& where) {
    os::unwatch_interrupt_signals();
    std::fprintf(stderr, "glint-compare: %s during %s: stopped%s\n", os::signal_name(sig).c_str(),
                 where.c_str(),
                 temporary_ ? "" : ("; what ran is in " + sanitize::terminal(dir_)).c_str());
    std::error_code ec;
    if (temporary_) fs::remove_all(dir_, ec);
    dir_.clear();
    std::raise(sig);  // ends the command by the signal it was sent
}

int Alternation::run(std::vector<std::string>& files) {
    for (const auto& program : files) {
        std::string why;
        if (!os::is_executable(program, why)) {
            std::fprintf(stderr,
                         "glint-compare: error: --alternate: '%s' cannot run: %s; give the path of "
                         "a program built with glint\n",
                         sanitize::terminal(program).c_str(), sanitize::terminal(why).c_str());
            return 2;
        }
    }
    std::string problem;
    if (!prepare_dir(problem)) {
        std::fprintf(stderr, "glint-compare: error: %s\n", sanitize::terminal(problem).c_str());
        return 2;
    }
    if (request_.runs < kRunsForInterval)
        std::fprintf(stderr,
                     "glint-compare: note: --alternate=%d: %d runs a side are needed for the runs "
                     "to reach a 95%% interval (3 reach 90%%, 2 too little to judge; 8 are "
                     "recommended)\n",
                     request_.runs, kRunsForInterval);
    const auto start = std::chrono::steady_clock::now();
    std::string sides[2];
    const char* side_names[2] = {"base", "new"};
    double bytes = 0;
    os::watch_interrupt_signals();  // an interrupt is passed on to the running program
    for (int i = 1; i <= request_.runs; ++i)
        for (int s = 0; s < 2; ++s) {
            double seconds = 0;
            const std::string where = std::string(side_names[s]) + " run " + std::to_string(i) +
                                      " of " + std::to_string(request_.runs);
            const int ran = run_one(files[s], side_names[s], i, seconds);
            const int sig = ran > 0 ? ran : os::first_interrupt_signal();
            if (sig > 0 && sig != os::broken_pipe_signal()) stop_by(sig, where);
            if (ran != 0) {
                os::unwatch_interrupt_signals();
                return 2;
            }
            std::fprintf(stderr, "%s %d/%d: %.1f s\n", side_names[s], i, request_.runs, seconds);
            const std::string json = side_file(dir_, side_names[s], i, ".json");
            std::error_code ec;
            bytes += static_cast<double>(fs::file_size(json, ec));
            sides[s] += (sides[s].empty() ? "" : ",") + json;
        }
    os::unwatch_interrupt_signals();
    const double total =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "alternated %d run%s a side in %.1f s; documents: %s per run (%s)\n",
                 request_.runs, request_.runs == 1 ? "" : "s", total,
                 size_text(bytes / (2.0 * request_.runs)).c_str(),
                 sanitize::terminal(dir_).c_str());
    files = {sides[0], sides[1]};
    return 0;
}

void Alternation::name_sides(std::vector<RunDocument>& documents) const {
    const std::string runs =
        " (" + std::to_string(request_.runs) + (request_.runs == 1 ? " run)" : " runs)");
    if (documents.size() == 2) {
        documents[0].path = "base" + runs;
        documents[1].path = "new" + runs;
    }
}

}  // namespace glint::engine
