// engine/tiers/perf/bracket_study.hpp: what bracketing costs, measured (bench/ reports it).
//
// On the software group (task-clock leads; it exists wherever perf_event does) with the syscall
// read path: the wall time of one empty bracket, and the task-clock per iteration a body reads
// when every iteration is bracketed versus when `batch` iterations share a bracket — the
// inflation that makes per-iteration brackets report the apparatus instead of a short body.
// Raw figures have nothing subtracted; "corrected" subtracts the pass's interleaved empty
// brackets as the tier does (nan when the body is within the subtraction's noise).
#pragma once

#include <cstdint>
#include <string>

#include "engine/tiers/perf/read_path.hpp"

namespace glint::engine::perf {

struct BracketingStudy {
    bool ok = false;
    std::string failure;  // why not, when !ok
    std::uint64_t iterations = 0;
    std::uint64_t batch = 0;
    double bracket_wall_ns = 0;          // steady_clock ns per empty bracket (ENABLE+DISABLE+read)
    double bracket_task_clock_ns = 0;    // task-clock of one empty bracket (median of 31)
    double task_clock_batch1 = 0;        // ns/iter, every iteration bracketed, raw
    double task_clock_batched = 0;       // ns/iter, `batch` per bracket, raw
    double task_clock_batch1_corrected = 0;   // batch 1, bracket cost subtracted
    double task_clock_batched_corrected = 0;  // batched, bracket cost subtracted
    double inflation() const { return task_clock_batch1 / task_clock_batched; }
};

// Runs `body` for `iterations` iterations twice (batch 1, then `batch`), after timing
// `wall_brackets` empty brackets. Never throws for environment problems (ok = false).
BracketingStudy study_bracketing(Body body, std::uint64_t iterations, std::uint64_t batch,
                                 std::uint64_t wall_brackets = 1000);

}  // namespace glint::engine::perf
