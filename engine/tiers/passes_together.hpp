// engine/tiers/passes_together.hpp: how much of a multi-threaded row's counting passes ran at
// once, each thread on a CPU (rows[].threadCoverage.passesTogether; thread_counting.cpp).
#pragma once

#include <cstdint>
#include <span>

namespace glint::engine {

// One thread's counting pass: its start and stop (now_ns) and the CPU time it used (-1: unread).
struct PassSpan {
    std::int64_t start = 0, stop = 0, cpu = -1;
};

// 0 to 1: the share of the shortest pass during which every pass was running, times the least
// share of its pass a thread spent on a CPU (a thread that waited for a CPU, time-sharing it with
// another, ran apart). nan: no pass, or one unread or empty.
double passes_together(std::span<const PassSpan> passes);

}  // namespace glint::engine
