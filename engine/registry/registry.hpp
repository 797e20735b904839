// engine/registry/registry.hpp: the cases registered by GLINT_BENCH (in registration order)
// and the provenance lines registered with glint::bench_provenance. Parameters: params.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glint/bench.hpp>

namespace glint::engine {

struct Registration {
    std::string name;
    void (*body)() = nullptr;
    glint::detail::Batch whole_body;  // the body as a compiled batch (whole-body cases)
    glint::detail::BuildFlags flags;
    std::string file;
    int line = 0;
    std::uint64_t pinned_iterations = 0;
    std::vector<glint::Metric> metrics;  // client columns of the case's rows (every iter row)
    std::vector<glint::Param> params;    // glint::range / glint::values (see params.hpp)
    std::optional<glint::Complexity> complexity;
};

// Every registered case, in registration order (static initialisation order within a file).
const std::vector<Registration>& registrations();

// Provenance lines, deduplicated, in first-seen order.
const std::vector<std::string>& provenance_lines();
// Adds a provenance line; returns false when it was already present.
bool add_provenance(std::string_view line);

}  // namespace glint::engine
