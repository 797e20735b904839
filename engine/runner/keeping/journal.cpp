#include "engine/runner/keeping/journal.hpp"

#include <algorithm>
#include <cstdio>
#include <unordered_set>
#include <utility>

#include "engine/compare/document.hpp"
#include "engine/model/json_limits.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/report/json_report.hpp"

namespace glint::engine {

namespace {

// What a journal's first line is: {"glintJournal": 1, ...}.
constexpr const char* kNotAJournal =
    "' is not a glint journal (its first line must be {\"glintJournal\": 1, ...})";
// A journal's first line fits this many bytes: a file is told from a journal by its head only.
constexpr std::size_t kJournalHeadBytes = std::size_t{1} << 20;

// The journal's first line as a header, or nullopt (not a journal). Throws JsonReadError.
std::optional<Json> journal_header(std::string_view line) {
    Json entry = Json::parse(line);
    const Json* mark = entry.find("glintJournal");
    if (!mark || !mark->is_number()) return std::nullopt;
    return entry;
}

// Why the row a journal line holds cannot stand in a document glint-compare reads, or nullopt.
// `parsed` gets the row as a document row (for its identity).
std::optional<std::string> row_problem(const Json& row, const std::string& path,
                                       DocumentRow& parsed, bool& has_registration) {
    std::string error;
    const std::string text = "{\"schema\": 2, \"rows\": [" + row.dump(-1) + "]}";
    const auto doc = parse_document(text, path, error);
    if (!doc) {
        const std::string prefix = "'" + path + "': row 1 ";
        return error.rfind(prefix, 0) == 0 ? error.substr(prefix.size()) : error;
    }
    parsed = doc->rows.front();
    has_registration = doc->has_registrations;
    return std::nullopt;
}

// The rows that can stand in one document, in order: a row that is no row as glint-compare reads
// rows, or a second row with an identity already kept, is dropped and said in `dropped`.
Json readable_rows(std::vector<std::pair<Json, std::size_t>> rows, const std::string& path,
                   std::vector<std::string>& dropped) {
    struct Candidate {
        Json row;
        std::size_t line;
        DocumentRow parsed;
    };
    std::vector<Candidate> candidates;
    bool all_registered = true;
    for (auto& [row, line] : rows) {
        Candidate c{std::move(row), line, {}};
        bool registered = false;
        if (auto why = row_problem(c.row, path, c.parsed, registered)) {
            dropped.push_back("line " + std::to_string(line) + ": the row " + *why);
            continue;
        }
        all_registered = all_registered && registered;
        candidates.push_back(std::move(c));
    }
    Json out = Json::array();
    std::unordered_set<std::string> seen;
    for (auto& c : candidates) {
        if (!seen.insert(identity_key(c.parsed, all_registered)).second) {
            dropped.push_back("line " + std::to_string(c.line) + ": a second row " +
                              identity_text(c.parsed) + " (the first is kept)");
            continue;
        }
        out.push_back(std::move(c.row));
    }
    return out;
}

}  // namespace

std::optional<RecoveredJournal> read_journal(const std::string& path, std::string& problem) {
    // The head first: a planted or sparse file is told from a journal by its first line, and a
    // NUL byte ends what is read (journals are text), so neither is read whole.
    std::string text;
    std::size_t size = 0;
    if (auto p = os::read_text_head(path, kJournalHeadBytes, text, size)) {
        problem = p->message;
        return std::nullopt;
    }
    const std::size_t first_line = text.find('\n');
    try {
        if (first_line == std::string::npos ||
            !journal_header(std::string_view(text).substr(0, first_line)))
            throw JsonReadError("no header", false);
    } catch (const JsonReadError& e) {
        if (e.too_deep) return journal_from_text(text, path, problem);  // says which line
        problem = "'" + path + kNotAJournal;
        return std::nullopt;
    }
    if (size > kMaxJournalBytes) {
        problem = "'" + path + "' is " + os::size_words(size) + ", more than the " +
                  os::size_words(kMaxJournalBytes) +
                  " glint reads: too large to recover (delete it, and run the benchmarks again)";
        return std::nullopt;
    }
    if (text.size() == kJournalHeadBytes && size > text.size())
        if (auto p = os::read_text_head(path, kMaxJournalBytes, text, size)) {
            problem = p->message;
            return std::nullopt;
        }
    if (text.size() < size) text.push_back('\0');  // a NUL ended the read: the rest is cut off
    return journal_from_text(text, path, problem);
}

std::optional<RecoveredJournal> journal_from_text(std::string_view text, const std::string& path,
                                                  std::string& problem) {
    RecoveredJournal out;
    std::size_t number = 0;
    Json meta, columns = Json::array(), during, during_labels;
    std::vector<std::pair<Json, std::size_t>> rows;
    bool first = true;
    std::size_t start = 0;
    // Journals are text: from a NUL byte on (a sparse or planted tail) nothing is read.
    if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
        text = text.substr(0, nul);
        if (!text.empty() && text.back() == '\n') ++out.skipped_lines;
    }
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        const bool whole = end != std::string::npos;  // a line without its newline was cut short
        if (!whole) end = text.size();
        const std::string_view line(text.data() + start, end - start);
        start = end + 1;
        ++number;
        Json entry;
        try {
            if (!whole) throw JsonReadError("cut short", false);
            if (first) {
                const auto header = journal_header(line);
                if (!header) break;
                entry = *header;
            } else {
                entry = Json::parse(line);
            }
        } catch (const JsonReadError& e) {
            if (e.too_deep) {
                problem = "'" + path + "' line " + std::to_string(number) + " nests deeper than " +
                          std::to_string(kMaxJsonDepth) +
                          " levels: not a journal glint wrote (delete it)";
                return std::nullopt;
            }
            if (first) break;
            ++out.skipped_lines;
            continue;
        }
        if (first) {
            if (const Json* m = entry.find("meta")) meta = *m;
            first = false;
        } else if (const Json* cols = entry.find("columns")) {
            columns = *cols;
        } else if (const Json* c = entry.find("case")) {
            during = *c;
            const Json* labels = entry.find("labels");
            during_labels = labels ? *labels : Json();
        } else if (const Json* r = entry.find("row")) {
            rows.emplace_back(*r, number);
            during = during_labels = Json();
        }
    }
    if (first) {
        problem = "'" + path + kNotAJournal;
        return std::nullopt;
    }
    Json kept = readable_rows(std::move(rows), path, out.dropped);
    out.rows = kept.size();
    if (!meta.is_object()) meta = Json::object();
    Json& interrupted = meta["interrupted"];
    if (!interrupted.is_object()) interrupted = Json::object();  // a journal's own is replaced
    interrupted["by"] = "unknown (recovered from a journal)";
    interrupted["duringCase"] = during;
    interrupted["duringCaseLabels"] = during_labels;
    interrupted["finishedRows"] = static_cast<unsigned long>(out.rows);
    interrupted["journal"] = path;
    if (out.skipped_lines)
        interrupted["skippedLines"] = static_cast<unsigned long>(out.skipped_lines);
    if (!out.dropped.empty())
        interrupted["droppedRows"] = static_cast<unsigned long>(out.dropped.size());
    out.document = Json::object();
    out.document["schema"] = kJsonSchema;
    out.document["meta"] = std::move(meta);
    out.document["columns"] = std::move(columns);
    out.document["rows"] = std::move(kept);
    return out;
}

int recover_journal(const std::string& journal, const std::optional<std::string>& json_path) {
    std::string problem;
    if (os::journal_held(journal))
        std::fprintf(stderr,
                     "glint: warning: --recover-journal: a running glint still holds '%s': its run "
                     "has not finished, so this recovers only the rows it has written so far\n",
                     sanitize::terminal(journal).c_str());
    auto recovered = read_journal(journal, problem);
    if (!recovered) {
        std::fprintf(stderr, "glint: error: --recover-journal: %s\n",
                     sanitize::terminal(problem).c_str());
        return 2;
    }
    const std::string text = recovered->document.dump(2) + "\n";
    std::optional<os::OutputTarget> target;
    if (json_path) {
        target = os::resolve_output(*json_path, problem);
        if (!target) {
            std::fprintf(stderr, "glint: error: --bench-json: %s\n",
                         sanitize::terminal(problem).c_str());
            return 2;
        }
    } else {
        target = os::OutputTarget{"-", "-", os::OutputMode::descriptor, 1};
    }
    if (auto error = os::write_output(*target, text)) {
        std::fprintf(stderr, "glint: error: --bench-json: %s\n", error->c_str());
        return 2;
    }
    const std::size_t shown_dropped = std::min<std::size_t>(recovered->dropped.size(), 10);
    for (std::size_t i = 0; i < shown_dropped; ++i)
        std::fprintf(stderr, "glint: warning: --recover-journal: dropped %s\n",
                     sanitize::terminal(recovered->dropped[i]).c_str());
    if (recovered->dropped.size() > shown_dropped)
        std::fprintf(stderr, "glint: warning: --recover-journal: dropped %zu more rows\n",
                     recovered->dropped.size() - shown_dropped);
    const std::size_t skipped = recovered->skipped_lines, dropped = recovered->dropped.size();
    std::fprintf(stderr, "glint: recovered %zu row%s from '%s'%s%s%s\n", recovered->rows,
                 recovered->rows == 1 ? "" : "s", sanitize::terminal(journal).c_str(),
                 json_path ? (" into '" + sanitize::terminal(*json_path) + "'").c_str() : "",
                 skipped ? (" (" + std::to_string(skipped) + " cut-short line" +
                            (skipped == 1 ? "" : "s") + " skipped)")
                               .c_str()
                         : "",
                 dropped
                     ? (" (" + std::to_string(dropped) + " row" + (dropped == 1 ? "" : "s") +
                        " dropped: no document could hold " + (dropped == 1 ? "it" : "them") + ")")
                           .c_str()
                     : "");
    return 0;
}

std::vector<std::string> stale_journal_notes(const os::OutputTarget& target) {
    std::vector<std::string> notes;
    for (const auto& path : os::stale_journals(target)) {
        std::string problem;
        const auto recovered = read_journal(path, problem);
        if (!recovered) {  // a corrupt or planted file is named and skipped, never fatal
            notes.push_back("'" + path + "' is named like a journal of '" + target.given +
                            "' but cannot be read (" + problem +
                            "): skipped; delete it if no run of yours left it");
            continue;
        }
        const std::string rows = std::to_string(recovered->rows) +
                                 (recovered->rows == 1 ? " finished row is" : " finished rows are");
        notes.push_back("a run writing '" + target.given + "' was killed before it finished; its " +
                        rows + " in the journal '" + path + "': --recover-journal=" + path +
                        " --bench-json=FILE turns it into a document (then delete it)");
    }
    return notes;
}

}  // namespace glint::engine
