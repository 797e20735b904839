// engine/runner/keeping/journal.hpp: reading back the journal a --bench run keeps beside its
// --bench-json target (its lines: engine/runner/keeping/run_record.hpp).
//
// A run killed where nothing could be written (SIGKILL, a power cut) leaves its journal,
// "<target>.journal.XXXXXX", unlocked; the next run with the same --bench-json names it.
// `--recover-journal=FILE` turns it into a --bench-json document: the journal's meta with
// meta.interrupted = {by: "unknown (recovered from a journal)", duringCase, duringCaseLabels,
// finishedRows, journal}, its last columns and every whole row line. A line cut short, or a tail
// from a NUL byte on, is skipped (skippedLines); a row glint-compare could not read, or a second
// row of one identity, is dropped and said (droppedRows): the document reads back through
// read_document. A file is told from a journal by its first line (in its first MiB).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/json.hpp"
#include "os/files.hpp"

namespace glint::engine {

// Journals are at most this large (a run's rows, serialized).
inline constexpr std::size_t kMaxJournalBytes = std::size_t{1} << 30;

struct RecoveredJournal {
    Json document;
    std::size_t rows = 0;
    std::size_t skipped_lines = 0;
    std::vector<std::string> dropped;  // "line N: why": rows no document could hold
};

// Parses a journal. On failure returns nullopt with `problem` (unreadable, not a journal).
std::optional<RecoveredJournal> read_journal(const std::string& path, std::string& problem);

// The journal `text` read from `path` (named in `problem`). A line nesting deeper than
// kMaxJsonDepth is no journal glint wrote: nullopt with `problem`, never a crash.
std::optional<RecoveredJournal> journal_from_text(std::string_view text, const std::string& path,
                                                  std::string& problem);

// --recover-journal=FILE: (a warning first when a running glint still holds it: os::journal_held)
// the document to --bench-json when given (atomically), else to the standard output; one line on
// stderr says how many rows. Returns the exit status (2 when the journal cannot be read or the
// output cannot be written).
int recover_journal(const std::string& journal, const std::optional<std::string>& json_path);

// One note per journal of `target` that a killed run left (os::stale_journals); one naming
// each such file that cannot be read as a journal (it is skipped).
std::vector<std::string> stale_journal_notes(const os::OutputTarget& target);

}  // namespace glint::engine
