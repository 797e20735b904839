// engine/gbench/dropin.hpp: the drop-in's run: Google Benchmark's flags (Initialize) and the
// instances as glint cases (RunSpecifiedBenchmarks).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/gbench/instances.hpp"

namespace glint::gbench {

// What Google Benchmark's flags asked for. Every flag Initialize does not know stays in argv for
// glint::main, which refuses an unknown one with its fix.
struct Flags {
    std::string filter = ".";
    bool list_tests = false;
    bool dry_run = false;
    std::optional<std::uint64_t> min_iterations;  // --benchmark_min_time=Nx
    std::optional<double> min_seconds;            // --benchmark_min_time=T[s]
    int repetitions = 0;
    std::string format = "console";
    std::string out;
    std::string out_format = "json";
    std::string time_unit;          // "" : each family's Unit, else ns
    std::vector<std::string> kept;  // argv[0] and glint's own flags, in order
    std::vector<int> kept_argv;     // their places in argv
    std::string error;              // a bad value: the message (exit 2)
};

// Parses argv; `flags.kept` gets what is not Google Benchmark's.
Flags parse_flags(int argc, char** argv);

// The instances --benchmark_filter selects (Google Benchmark's regex: extended, searched
// anywhere in the name; a leading '-' negates). Throws std::invalid_argument on a bad regex.
std::vector<Instance> select(std::vector<Instance> all, const std::string& filter);

// Registers each instance as a glint case (one trampoline each) and returns the lines said once
// per run about what differs from Google Benchmark; an unsupported construct throws
// std::invalid_argument naming it.
std::vector<std::string> register_instances(const std::vector<Instance>& selected,
                                            const Flags& flags);

}  // namespace glint::gbench
