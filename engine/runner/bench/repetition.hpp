// engine/runner/bench/repetition.hpp: --bench-repeat=N, each case measured N times, interleaved
// (A, B, C, A, B, C, ...). Repetitions before the last are silent (no table, no counting pass);
// each of their rows is kept by identity and merged into the last repetition's row as it is
// measured: median_ns is the median of the repetitions' medians (repetition_median_ns),
// sample_ns pools their samples. Batched repetitions after the first keep the first one's
// iterations per sample. A case that failed in any repetition is an error row.
// Rationale and details: docs/rationale.md, "engine/runner/bench/repetition.hpp".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/model/row.hpp"
#include "engine/report/reporter.hpp"

namespace glint::engine {

// The table reporter of a run, muted during the repetitions before the last.
class GatedTable final : public ForwardingTableReporter {
  public:
    explicit GatedTable(TableReporter& inner) : ForwardingTableReporter(inner) {}
    void mute(bool muted) { muted_ = muted; }
    bool muted() const { return muted_; }

  private:
    void pass(const std::function<void()>& call) override {
        if (!muted_) call();
    }
    bool muted_ = false;
};

// Pure: the merged timing of one case's repetitions, in order (at least one).
TimingSummary merge_repetitions(const std::vector<TimingSummary>& repetitions);

class Repetitions {
  public:
    explicit Repetitions(std::uint64_t count) : count_(count ? count : 1) {}
    std::uint64_t count() const { return count_; }
    // Starts repetition `index` (1-based); announces it on stderr when there are several.
    void begin(std::uint64_t index);
    bool last() const { return current_ == count_; }
    // A child of --isolate measures one repetition of one case as if it were the only one (the
    // parent merges what its children send).
    void alone() { count_ = current_ = 1; }

    // After an early repetition: keeps each row's timing or error, by identity.
    void keep(const std::vector<Row>& rows);
    // The first repetition's iterations per sample of a batched case (0: none kept).
    std::uint64_t pinned_iterations(const Row& row) const;
    // In the last repetition: `row` (just timed) merged with its kept repetitions.
    void merge(Row& row) const;
    // After an interruption: each case with some of its repetitions finished but no complete
    // row (none among `complete`, the last repetition's rows), in the first repetition's order:
    // its finished repetitions merged (the interrupted repetition's `current` rows included,
    // unless it is the last), marked with the JSON field
    // "partialRepetitions": {"done": K, "of": N}.
    std::vector<Row> partial_rows(const std::vector<Row>& current,
                                  const std::vector<Row>& complete) const;

  private:
    std::uint64_t count_;
    std::uint64_t current_ = 0;
    std::map<std::string, std::vector<TimingSummary>> timings_;
    std::map<std::string, std::string> errors_;  // the first failure, with its repetition
    std::vector<Row> first_rows_;                // the first repetition's rows, in order
};

}  // namespace glint::engine
