#include "engine/runner/keeping/journal.hpp"

#include <cstdio>

#include "engine/model/json_limits.hpp"
#include "engine/report/json_report.hpp"

namespace glint::engine {

std::optional<RecoveredJournal> read_journal(const std::string& path, std::string& problem) {
    std::string text;
    if (auto p = os::read_regular_file(path, kMaxJournalBytes, text)) {
        problem = p->message +
                  (p->too_large ? ": too large to recover (delete it, and run the benchmarks again)"
                                : "");
        return std::nullopt;
    }
    return journal_from_text(text, path, problem);
}

std::optional<RecoveredJournal> journal_from_text(std::string_view text, const std::string& path,
                                                  std::string& problem) {
    RecoveredJournal out;
    std::size_t number = 0;
    Json meta, columns = Json::array(), rows = Json::array(), during, during_labels;
    bool first = true;
    std::size_t start = 0;
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
            entry = Json::parse(line);
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
            const Json* mark = entry.find("glintJournal");
            if (!mark || !mark->is_number()) break;
            if (const Json* m = entry.find("meta")) meta = *m;
            first = false;
        } else if (const Json* cols = entry.find("columns")) {
            columns = *cols;
        } else if (const Json* c = entry.find("case")) {
            during = *c;
            const Json* labels = entry.find("labels");
            during_labels = labels ? *labels : Json();
        } else if (const Json* r = entry.find("row")) {
            rows.push_back(*r);
            during = during_labels = Json();
            ++out.rows;
        }
    }
    if (first) {
        problem = "'" + path +
                  "' is not a glint journal (its first line must be {\"glintJournal\": 1, ...})";
        return std::nullopt;
    }
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
    out.document = Json::object();
    out.document["schema"] = kJsonSchema;
    out.document["meta"] = std::move(meta);
    out.document["columns"] = std::move(columns);
    out.document["rows"] = std::move(rows);
    return out;
}

int recover_journal(const std::string& journal, const std::optional<std::string>& json_path) {
    std::string problem;
    if (os::journal_held(journal))
        std::fprintf(stderr,
                     "glint: warning: --recover-journal: a running glint still holds '%s': its run "
                     "has not finished, so this recovers only the rows it has written so far\n",
                     journal.c_str());
    auto recovered = read_journal(journal, problem);
    if (!recovered) {
        std::fprintf(stderr, "glint: error: --recover-journal: %s\n", problem.c_str());
        return 2;
    }
    const std::string text = recovered->document.dump(2) + "\n";
    std::optional<os::OutputTarget> target;
    if (json_path) {
        target = os::resolve_output(*json_path, problem);
        if (!target) {
            std::fprintf(stderr, "glint: error: --bench-json: %s\n", problem.c_str());
            return 2;
        }
    } else {
        target = os::OutputTarget{"-", "-", os::OutputMode::descriptor, 1};
    }
    if (auto error = os::write_output(*target, text)) {
        std::fprintf(stderr, "glint: error: --bench-json: %s\n", error->c_str());
        return 2;
    }
    std::fprintf(
        stderr, "glint: recovered %zu row%s from '%s'%s%s\n", recovered->rows,
        recovered->rows == 1 ? "" : "s", journal.c_str(),
        json_path ? (" into '" + *json_path + "'").c_str() : "",
        recovered->skipped_lines
            ? (" (" + std::to_string(recovered->skipped_lines) + " cut-short line skipped)").c_str()
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
        const std::string rows = std::to_string(recovered->rows) + " finished rows";
        notes.push_back("a run writing '" + target.given + "' was killed before it finished; its " +
                        rows + " are in the journal '" + path + "': --recover-journal=" + path +
                        " --bench-json=FILE turns it into a document (then delete it)");
    }
    return notes;
}

}  // namespace glint::engine
