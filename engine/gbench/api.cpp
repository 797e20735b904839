// Initialize / RunSpecifiedBenchmarks / Shutdown of the drop-in: Google Benchmark's flags, its
// listing, then glint::main over the selected instances and, when asked, Google Benchmark's JSON.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <glint/main.hpp>

#include "engine/gbench/complexity.hpp"
#include "engine/gbench/dropin.hpp"
#include "engine/report/gbench_json.hpp"
#include "engine/runner/modes/deleted_probe.hpp"

namespace benchmark {
namespace {

glint::gbench::Flags g_flags;
bool g_initialized = false;
int g_status = 0;
TimeUnit g_default_unit = kNanosecond;
std::vector<std::pair<std::string, std::string>> g_context;

const char* unit_name(TimeUnit u) {
    static constexpr const char* kNames[] = {"ns", "us", "ms", "s"};
    return kNames[static_cast<int>(u)];
}

// Whether glint's own flags ask for a mode (then the drop-in does not add --bench).
bool has_mode_flag(const std::vector<std::string>& kept) {
    for (std::size_t i = 1; i < kept.size(); ++i)
        for (const char* mode : {"--bench", "--list", "--list-metrics", "--help", "-h", "--version",
                                 "--capabilities", "--recover-journal", "--help-markdown"})
            if (kept[i] == mode || kept[i].rfind(std::string(mode) + "=", 0) == 0) return true;
    return false;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// glint::main over `args`, its standard output sent to stderr when `quiet_stdout`.
int run_glint(std::vector<std::string> args, bool quiet_stdout) {
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    const int saved = quiet_stdout ? dup(1) : -1;
    if (saved >= 0) dup2(2, 1);
    const int status = glint::main(static_cast<int>(args.size()), argv.data());
    std::cout.flush();
    std::fflush(stdout);
    if (saved >= 0) dup2(saved, 1), close(saved);
    return status;
}

}  // namespace

void Initialize(int* argc, char** argv, void (*)()) {
    g_flags = glint::gbench::parse_flags(*argc, argv);
    g_initialized = true;
    // argv keeps glint's flags only, as Google Benchmark leaves the flags it did not read.
    int n = 0;
    for (int i : g_flags.kept_argv) argv[n++] = argv[i];
    *argc = n;
}

void Shutdown() {}
bool ReportUnrecognizedArguments(int, char**) { return false; }
void SetDefaultTimeUnit(TimeUnit unit) { g_default_unit = unit; }
TimeUnit GetDefaultTimeUnit() { return g_default_unit; }
void AddCustomContext(const std::string& key, const std::string& value) {
    g_context.emplace_back(key, value);
}

std::size_t RunSpecifiedBenchmarks(std::string spec) {
    g_flags.filter = std::move(spec);
    return RunSpecifiedBenchmarks();
}

std::size_t RunSpecifiedBenchmarks() {
    using namespace glint::gbench;
    if (!g_initialized) g_flags.kept = {"benchmark"};
    auto fail = [](const std::string& message) {
        std::cerr << "glint: " << message << "\n";
        g_status = 2;
        return std::size_t{0};
    };
    if (!g_flags.error.empty()) return fail(g_flags.error);
    std::vector<Instance> selected;
    try {
        selected = select(expand_all(), g_flags.filter);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    if (g_flags.list_tests) {
        for (const Instance& in : selected) std::cout << in.name << "\n";
        return selected.size();
    }
    std::vector<std::string> notes;
    try {
        notes = register_instances(selected, g_flags);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    std::vector<std::string> args = g_flags.kept;
    const bool measure = !g_flags.dry_run && !has_mode_flag(args);
    if (g_flags.dry_run) glint::engine::set_plain_deleted_probe(false);  // once, as GB runs it
    if (measure) args.insert(args.begin() + 1, "--bench");
    if (g_flags.repetitions > 1)
        args.push_back("--bench-repeat=" + std::to_string(g_flags.repetitions));
    if (g_flags.min_seconds)  // Google Benchmark's time per instance over glint's 32 samples
        args.push_back("--bench-min-time=" + std::to_string(*g_flags.min_seconds * 1000 / 32));
    if (g_flags.format == "csv") args.push_back("--bench-format=csv");
    const bool json_stdout = g_flags.format == "json";
    const bool want_gb_json = measure && (json_stdout || !g_flags.out.empty());
    const bool want_json = want_gb_json || (measure && glint::gbench::wants_complexity(selected));
    std::string glint_json;
    for (const std::string& a : args)
        if (a.rfind("--bench-json=", 0) == 0) glint_json = a.substr(13);
    bool temporary = false;
    if (want_json && (glint_json.empty() || glint_json == "-")) {
        char path[] = "/tmp/glint-gbench-XXXXXX";
        const int fd = mkstemp(path);
        if (fd < 0) return fail("cannot create a temporary file for the JSON document in /tmp");
        close(fd);
        glint_json = path;
        temporary = true;
        args.push_back("--bench-json=" + glint_json);
    }
    if (measure && !notes.empty()) {
        std::cerr << "glint: Google Benchmark drop-in: what differs in this run "
                     "(docs/coming-from-google-benchmark.md):\n";
        for (const std::string& n : notes) std::cerr << "  - " << n << "\n";
    }
    g_status = run_glint(args, json_stdout);
    if (want_json) {
        std::string doc;
        glint::engine::GbJsonOptions o;
        o.executable = g_flags.kept.empty() ? "" : g_flags.kept.front();
        o.default_unit = g_flags.time_unit.empty() ? unit_name(g_default_unit) : g_flags.time_unit;
        o.context = g_context;
        for (const Instance& in : selected) {
            const auto& s = in.family->benchmark->spec();
            o.rows[in.name] = {in.family_index, in.per_family_index, in.threads,
                               s.has_unit && g_flags.time_unit.empty() ? unit_name(s.unit) : ""};
        }
        try {
            const std::string glint_doc = read_file(glint_json);
            if (want_gb_json) doc = glint::engine::google_benchmark_json(glint_doc, o);
            if (glint::gbench::wants_complexity(selected)) {
                auto fits = glint::gbench::fit_families(selected, glint_doc, doc);
                for (const std::string& line : fits.lines)
                    (json_stdout ? std::cerr : std::cout) << line << "\n";
                doc = std::move(fits.gbench_json);
            }
            if (json_stdout) std::cout << doc;
            if (!g_flags.out.empty()) {
                std::ofstream out(g_flags.out, std::ios::binary);
                out << doc;
                if (!out) return fail("--benchmark_out=" + g_flags.out + ": cannot write it");
            }
        } catch (const std::exception& e) {
            fail(std::string("Google Benchmark JSON: ") + e.what());
        }
        if (temporary) std::remove(glint_json.c_str());
    }
    return selected.size();
}

namespace internal {
int GlintExitStatus() { return g_status; }
int InitializeStreams() { return 0; }
}  // namespace internal

}  // namespace benchmark
