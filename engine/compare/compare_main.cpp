#include "engine/compare/compare_main.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "engine/compare/alternate.hpp"
#include "engine/compare/compare_html.hpp"
#include "engine/compare/compare_report.hpp"
#include "engine/compare/document.hpp"
#include "engine/model/flag_value.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/report/json_report.hpp"
#include "os/files.hpp"

namespace glint::engine {
namespace {

constexpr const char* kUsage = R"(usage: glint-compare [flags] BASE.json NEW.json [MORE.json...]

Compares glint --bench-json documents row by row (registration, name and labels), each later
document against BASE: median change, its 95% interval over the repetition medians
(--bench-repeat=N), and a verdict per row: faster, slower, same (within the threshold) or noisy.
A side may be several runs of one build, comma-separated (a1.json,a2.json,a3.json): their
repetitions pool, so drift between the runs widens the interval (alternate the two builds' runs),
and slower or faster also needs the runs' own medians to agree (else the row reads noisy).

  --format=box|md|json     the table (default), markdown for a pull request, or JSON
  --threshold=PCT          practical threshold: a change within ±PCT reads "same" (default 3)
  --instr-threshold=PCT    exact instructions/iter that move beyond PCT decide a noisy row (1)
  --fail-if-slower=PCT     the gate: exit 1 when a row is slower beyond PCT with confidence,
                           3 when a row could not be judged (one run a side, too few
                           repetitions, an interval reaching past PCT, several runs on one
                           side only) or none was compared; 0 only when every compared row
                           was judged (rows one side lacks are counted, not gated)
  --allow-unjudged         with --fail-if-slower: rows not judged do not fail the gate (the
                           gate line says how many)
  --html=FILE              also write a self-contained HTML report (sortable, distributions)
  --help                   this text

Exit status: 0 (no gate, or every row judged within it), 1 a row slower beyond the gate,
2 bad usage, an unreadable document or a failed write, 3 a row the gate could not judge.
)";

struct CompareCli {
    CompareReportOptions report;
    CompareFormat format = CompareFormat::box;
    std::string html;
    std::vector<std::string> files;
    bool help = false;
};

CompareCli parse(int argc, char** argv) {
    CompareCli cli;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        const auto eq = arg.find('=');
        const std::string_view name = arg.substr(0, eq);
        const std::string_view value = eq == std::string_view::npos ? "" : arg.substr(eq + 1);
        auto need = [&](const char* form) {
            if (value.empty())
                throw UsageError(std::string(name) + ": needs a value: " + std::string(name) + "=" +
                                 form);
        };
        if (arg == "--help" || arg == "-h") {
            cli.help = true;
        } else if (name == "--format") {
            need("box|md|json");
            if (value == "box" || value == "table") cli.format = CompareFormat::box;
            else if (value == "md" || value == "markdown") cli.format = CompareFormat::md;
            else if (value == "json") cli.format = CompareFormat::json;
            else
                throw UsageError("--format: '" + std::string(value) +
                                 "' is not one of box, md, json");
        } else if (name == "--threshold") {
            need("PCT");
            cli.report.settings.threshold = parse_percent(name, value) / 100;
        } else if (name == "--instr-threshold") {
            need("PCT");
            cli.report.settings.instr_threshold = parse_percent(name, value) / 100;
        } else if (name == "--fail-if-slower") {
            need("PCT");
            cli.report.gate = parse_percent(name, value) / 100;
        } else if (arg == "--allow-unjudged") {
            cli.report.allow_unjudged = true;
        } else if (name == "--html") {
            need("FILE");
            cli.html = std::string(value);
        } else if (arg.size() > 1 && arg[0] == '-') {
            throw UsageError("unknown flag '" + std::string(arg) + "'; see --help");
        } else {
            cli.files.emplace_back(arg);
        }
    }
    if (cli.report.allow_unjudged && !cli.report.gate)
        throw UsageError("--allow-unjudged: relaxes the gate; add --fail-if-slower=PCT");
    if (!cli.help && cli.files.size() < 2)
        throw UsageError(
            "needs two documents at least: glint-compare BASE.json NEW.json (see --help)");
    return cli;
}

// A program rather than a document: an executable regular file that begins as an ELF binary or
// a script does ("\x7fELF", "#!").
bool looks_like_program(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const auto st = fs::status(path, ec);
    if (ec || !fs::is_regular_file(st)) return false;
    if ((st.permissions() & (fs::perms::owner_exec | fs::perms::group_exec |
                             fs::perms::others_exec)) == fs::perms::none)
        return false;
    char head[4] = {};
    std::ifstream(path, std::ios::binary).read(head, sizeof head);
    return std::memcmp(head,
                       "\x7f"
                       "ELF",
                       4) == 0 ||
           (head[0] == '#' && head[1] == '!');
}

int usage_error(const std::string& message) {
    std::fprintf(stderr, "glint-compare: error: %s\n", sanitize::terminal(message).c_str());
    return 2;
}

}  // namespace

namespace {

int compare_unguarded(int argc, char** argv) {
    CompareCli cli;
    AlternateArgs alternate;  // --alternate=K runs the two programs first (alternate.hpp)
    try {
        alternate = take_alternate_flags(argc, argv);
        cli = parse(static_cast<int>(alternate.rest.size()), alternate.rest.data());
    } catch (const UsageError& e) {
        return usage_error(e.what());
    }
    if (cli.help) {
        std::fputs(kUsage, stdout);
        std::fputs(alternate_usage(), stdout);
        return 0;
    }
    std::optional<os::OutputTarget> html_target;
    if (!cli.html.empty()) {
        std::string problem;
        html_target = os::resolve_writable_output(cli.html, problem);
        if (!html_target) return usage_error("--html: " + problem);
        for (const auto& side : cli.files)
            for (const auto& file : side_files(side))
                if (os::overwrites_input(*html_target, file))
                    return usage_error("--html='" + cli.html + "' would overwrite the document '" +
                                       file + "' it compares; choose another path");
    }
    std::optional<Alternation> alternation;
    if (alternate.request.active())
        if (const int failed = alternation.emplace(alternate.request).run(cli.files)) return failed;
    if (!alternation && cli.files.size() == 2 && looks_like_program(cli.files[0]) &&
        looks_like_program(cli.files[1]))
        return usage_error("'" + cli.files[0] + "' and '" + cli.files[1] +
                           "' are programs, not --bench-json documents: to run them in turn and "
                           "compare, add --alternate=8: glint-compare --alternate=8 " +
                           cli.files[0] + " " + cli.files[1]);
    for (const auto& file : cli.files)
        if (!alternation && looks_like_program(file))
            return usage_error("'" + file +
                               "' is a program, not a --bench-json document: compare two "
                               "programs with glint-compare --alternate=8 BASE_PROGRAM "
                               "NEW_PROGRAM, or write a document with PROGRAM "
                               "--bench-json=FILE");
    std::vector<RunDocument> documents;
    documents.reserve(cli.files.size());
    for (const auto& file : cli.files) {
        std::string problem;
        auto doc = read_side(file, problem);
        if (!doc) return usage_error(problem);
        documents.push_back(std::move(*doc));
    }
    if (alternation) alternation->name_sides(documents);
    std::vector<const RunDocument*> series;
    for (const auto& d : documents) series.push_back(&d);
    const Comparison comparison = compare_documents(series, cli.report.settings, cli.report.gate);

    const std::string text = cli.format == CompareFormat::json
                                 ? comparison_json(comparison, cli.report).dump(2) + "\n"
                                 : render_comparison(comparison, cli.report, cli.format);
    // --html on the standard output (--html=-) has it to itself: the table goes to stderr. A
    // failed write (a full disk, /dev/full) is exit status 2, as a failed --html is; the HTML is
    // still written.
    const bool stdout_taken =
        html_target && html_target->mode == os::OutputMode::descriptor && html_target->fd == 1;
    std::FILE* const out = stdout_taken ? stderr : stdout;
    int status = comparison.gate_status(cli.report.allow_unjudged);
    errno = 0;
    if (std::fwrite(text.data(), 1, text.size(), out) != text.size() || std::fflush(out) != 0 ||
        std::ferror(out)) {
        const int error = errno;
        std::fprintf(stderr, "glint-compare: error: writing the standard %s failed%s%s\n",
                     stdout_taken ? "error" : "output", error ? ": " : "",
                     error ? std::strerror(error) : "");
        std::clearerr(out);
        status = 2;
    }
    if (html_target)
        if (auto error =
                report::html::write_page(*html_target, comparison_html(comparison, cli.report))) {
            std::fprintf(stderr, "glint-compare: error: --html: %s\n", error->c_str());
            status = 2;
        }
    if (alternation) alternation->finish(status);
    return status;
}

}  // namespace

int compare_main(int argc, char** argv) {
    try {
        return compare_unguarded(argc, argv);
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "glint-compare: error: %s\n",
                     out_of_memory("the comparison of these documents").c_str());
        return 2;
    }
}

}  // namespace glint::engine
