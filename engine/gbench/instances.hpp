// engine/gbench/instances.hpp: the families the drop-in's BENCHMARK macros registered and their
// instances, expanded and named as Google Benchmark 1.7 does (benchmark_register.cc's rules:
// args, then min_time, iterations, repeats, time type, threads).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <glint/gbench/family.hpp>

namespace glint::gbench {

// Owns its benchmark, destroyed at exit as Google Benchmark destroys its families (a fixture's
// destructor may report what its runs saw).
struct Family {
    std::unique_ptr<benchmark::internal::Benchmark> benchmark;
    bool optimized = false;  // how the registering translation unit was compiled
    bool assertions = false;
};

struct Instance {
    const Family* family = nullptr;
    std::vector<std::int64_t> args;
    int threads = 1;
    std::string name;
    int family_index = 0;
    int per_family_index = 0;
};

std::vector<std::unique_ptr<Family>>& families();

// Every instance of every family, in registration order (a family's args vary slowest, then
// its thread counts).
std::vector<Instance> expand_all();

// Google Benchmark's AddRange: lo, the powers of mult strictly inside (lo, hi), hi.
std::vector<std::int64_t> add_range(std::int64_t lo, std::int64_t hi, int mult);

// The online CPUs (ThreadPerCpu).
int num_cpus();

}  // namespace glint::gbench
