// tests/support/workloads.hpp: what the counting and tier tests build and read back -- a batched
// Workload, and a pass's cell or a family's descriptor by name (the test fails when absent).
#pragma once

#include <doctest/doctest.h>

#include <glint/bench.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/counting/workload.hpp"

namespace glint::test {

// `body` run n times per batch call, inlined (the batch function GLINT_BENCH bodies get).
template <class F>
engine::Workload batched(F& body) {
    engine::Workload w;
    w.batch = {&glint::detail::run_batch<F>, &body};
    return w;
}

// A batch function of the test's own, called with `ctx`.
inline engine::Workload batched(void (*run)(void* ctx, std::uint64_t n), void* ctx = nullptr) {
    engine::Workload w;
    w.batch = {run, ctx};
    return w;
}

inline double cell(const engine::PassResult& r, std::string_view name) {
    for (const auto& c : r.cells)
        if (c.name == name) return c.value;
    FAIL("no cell " << std::string(name));
    return 0;
}

inline const catalog::MetricDescriptor& descriptor(
    const std::vector<catalog::MetricDescriptor>& family, std::string_view name) {
    for (const auto& d : family)
        if (d.name == name) return d;
    FAIL("no descriptor " << std::string(name));
    return family.front();
}

}  // namespace glint::test
