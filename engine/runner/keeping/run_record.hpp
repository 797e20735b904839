// engine/runner/keeping/run_record.hpp: the rows a --bench run has finished, kept where a run
// that cannot return to glint::main can still hand them over: appended to the journal beside a
// --bench-json target (one JSON line per event, fdatasync per row; journal.hpp reads it back),
// and kept serialized in memory so write_abnormal_end (async-signal-safe) still writes a valid
// document with meta.interrupted. A run that returns writes its document and calls finish(),
// which removes the journal. Journal lines: {"glintJournal": 1, "target", "meta"} first, then
// {"columns": [...]}, {"case": NAME, "labels": {...}}, {"row": {...}}.
// Rationale and details: docs/rationale.md, "engine/runner/keeping/run_record.hpp".
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/model/json.hpp"
#include "engine/model/row.hpp"
#include "engine/report/json_report.hpp"
#include "os/files.hpp"

namespace glint::engine {

class RunRecord {
  public:
    // The texts naming a case in flight, made when it starts (a handler only reads them).
    struct InFlight {
        std::string members;  // case_in_flight_members()
        std::string shown;    // case_in_flight_shown()
    };

    RunRecord() = default;
    RunRecord(const RunRecord&) = delete;
    RunRecord& operator=(const RunRecord&) = delete;
    ~RunRecord();

    // Starts recording with the run's meta, for `target` (null: no --bench-json; the record
    // still names the case in flight). A replace target gets a journal (`note` says when it
    // could not be created: the run goes on without one). Rows keep their samples as `detail`
    // says, as the document does.
    void start(const os::OutputTarget* target, const Json& meta, std::string& note,
               SampleDetail detail = SampleDetail::thinned);
    bool started() const { return started_; }

    void set_columns(const std::vector<catalog::MetricDescriptor>& columns);
    void case_started(const std::string& name, const Labels& labels);
    void row_finished(const Row& row);

    // Async-signal-safe. Writes the abnormal document to the target; `by` says what ended the
    // run ("SIGSEGV", "exit(0)", ...). Returns true when the document is in place.
    bool write_abnormal_end(const char* by) noexcept;
    // Async-signal-safe: the case in flight as the JSON members
    // `"duringCase": NAME, "duringCaseLabels": {...}` (both null between cases).
    const char* case_in_flight_members() const noexcept;
    // Async-signal-safe: the case in flight for a message, its name JSON-quoted and its labels
    // after it (`"lookup" [size=1000]`); "null" between cases.
    const char* case_in_flight_shown() const noexcept;
    std::size_t finished_rows() const noexcept {
        return row_count_.load(std::memory_order_acquire);
    }
    // The journal, "" when there is none or it was lost.
    const std::string& journal_path() const {
        return journal_lost_.load(std::memory_order_acquire) ? kNoJournal : journal_path_;
    }
    // Once, after a write to the journal failed (a full disk): what happened. The journal is
    // then removed and no message names it (it would hold fewer rows than the run finished).
    std::optional<std::string> take_journal_problem();
    const std::string& target_name() const { return target_name_; }

    // The final document is written: the journal goes.
    void finish();
    bool final_written() const noexcept { return final_written_.load(); }

  private:
    struct Node {
        std::string text;  // the row's JSON, one line
        Node* next = nullptr;
    };
    void keep(std::string text, std::atomic<const std::string*>& slot);
    void lose_journal(int error);  // a write failed with `error`
    static inline const std::string kNoJournal;

    bool started_ = false;
    std::string target_name_;
    std::string journal_path_;
    std::optional<os::JournalFile> journal_;
    std::atomic<bool> journal_lost_{false};
    std::optional<std::string> journal_problem_;
    os::EmergencyOutput emergency_;
    std::string prefix_;  // {"schema": 2, "meta": {<meta members>, "interrupted": {"by": "
    std::atomic<const std::string*> columns_{nullptr};
    std::vector<catalog::MetricDescriptor> columns_list_;
    SampleDetail detail_ = SampleDetail::thinned;
    std::atomic<const InFlight*> case_{nullptr};
    std::vector<std::unique_ptr<std::string>> kept_;     // every text a pointer above may show
    std::vector<std::unique_ptr<InFlight>> kept_cases_;  // every case case_ may show
    std::vector<std::unique_ptr<Node>> nodes_;
    Node* head_ = nullptr;
    Node* tail_ = nullptr;
    std::atomic<std::size_t> row_count_{0};
    std::atomic<bool> ended_{false};
    std::atomic<bool> final_written_{false};
};

// The run's record, for the handlers that have no other way to reach it (fatal signals, the
// exit hook); null outside a --bench run.
RunRecord* active_record() noexcept;
void set_active_record(RunRecord* record) noexcept;

}  // namespace glint::engine
