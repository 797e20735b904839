// <glint/params.hpp>: named parameters of a registration and the complexity fit over them
// (included by <glint/bench.hpp>; the runner implements them).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace glint {

// A named parameter of a registration, passed as an option:
//
//   GLINT_BENCH("sum", glint::range("size", 1 << 10, 1 << 16, 4)) {
//       std::vector<int> v(glint::param());        // this run's value of "size"
//       glint::iter([&] { return std::accumulate(v.begin(), v.end(), 0); });
//   }
//
// The body runs once per value (per combination, when there are several parameters: the first
// varies slowest), and every row it produces, iter, whole-body or bench_case, carries the label
// name=value (a bench_case's own label of that name is replaced). Values are integers.
struct Param {
    std::string name;
    std::vector<std::int64_t> values;
    std::string error;  // set by range()/values() on bad arguments; reported before any run
};
// lo, lo*factor, lo*factor^2, ... while <= hi, then hi itself if the last value fell short
// (range("n", 1, 100, 10): 1, 10, 100; range("n", 8, 100, 4): 8, 32, 100). lo >= 1, factor >= 2.
Param range(std::string name, std::int64_t lo, std::int64_t hi, std::int64_t factor = 2);
// Exactly these values, in this order (distinct).
Param values(std::string name, std::vector<std::int64_t> list);
// The parameter "threads": each row runs its glint::iter (or whole body) on that many threads at
// once, started together; its time is the slowest thread's per iteration, a rate metric counts
// every thread's work, and glint::thread_index() tells the threads apart (threads.md in glint's
// documentation). Counts from 1 to 1024: GLINT_BENCH("push", glint::threads({1, 2, 4})).
Param threads(std::vector<std::int64_t> counts);

// The value of the registration's parameter `name` for the body run in progress (name omitted:
// its only parameter). Throws std::logic_error naming the problem outside a parameterised body;
// a bench_case's callables run after the body returns: capture the value, do not call param().
std::int64_t param(std::string_view name = {});

// Option: fit the median time per iteration against a parameter (name omitted: the first) with
// O(1), O(log n), O(n), O(n log n), O(n^2), O(n^3) on relative residuals, and report the best
// fit under the table and in JSON meta.complexity. Rows that differ only in that parameter form
// one fit; at least 3 values are needed.
struct Complexity {
    std::string param;
};
inline Complexity complexity(std::string param = {}) { return Complexity{std::move(param)}; }

}  // namespace glint
