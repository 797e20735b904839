// The builder of benchmark::internal::Benchmark (the drop-in's families): records what each
// call asks for in the family's Spec.
#include <stdexcept>
#include <thread>

#include "engine/gbench/instances.hpp"

namespace benchmark::internal {

using Self = Benchmark;

Benchmark::Benchmark(const char* name) { spec_.name = name; }
Benchmark::~Benchmark() = default;

Self* Benchmark::Name(const std::string& name) { return with(spec_.name, name); }
Self* Benchmark::Arg(std::int64_t x) { return Args({x}); }
Self* Benchmark::Unit(TimeUnit unit) {
    spec_.has_unit = true;
    return with(spec_.unit, unit);
}
Self* Benchmark::Range(std::int64_t start, std::int64_t limit) {
    for (std::int64_t v : glint::gbench::add_range(start, limit, spec_.range_multiplier))
        spec_.args.push_back({v});
    return this;
}
Self* Benchmark::DenseRange(std::int64_t start, std::int64_t limit, int step) {
    if (step <= 0) throw std::invalid_argument("DenseRange: the step must be positive");
    for (std::int64_t v = start; v <= limit; v += step) spec_.args.push_back({v});
    return this;
}
Self* Benchmark::Args(const std::vector<std::int64_t>& args) {
    spec_.args.push_back(args);
    return this;
}
Self* Benchmark::Ranges(const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges) {
    std::vector<std::vector<std::int64_t>> lists;
    for (const auto& [lo, hi] : ranges)
        lists.push_back(glint::gbench::add_range(lo, hi, spec_.range_multiplier));
    return ArgsProduct(lists);
}
// Google Benchmark's order: the first list varies fastest.
Self* Benchmark::ArgsProduct(const std::vector<std::vector<std::int64_t>>& arglists) {
    std::size_t total = 1;
    for (const auto& list : arglists) total *= list.size();
    std::vector<std::size_t> indices(arglists.size());
    for (std::size_t i = 0; i < total; ++i) {
        std::vector<std::int64_t> args;
        for (std::size_t a = 0; a < arglists.size(); ++a) args.push_back(arglists[a][indices[a]]);
        spec_.args.push_back(std::move(args));
        std::size_t a = 0;
        do {
            indices[a] = (indices[a] + 1) % arglists[a].size();
        } while (indices[a++] == 0 && a < arglists.size());
    }
    return this;
}
Self* Benchmark::ArgName(const std::string& name) {
    return with(spec_.arg_names, std::vector<std::string>{name});
}
Self* Benchmark::ArgNames(const std::vector<std::string>& names) {
    return with(spec_.arg_names, names);
}
Self* Benchmark::Apply(void (*func)(Benchmark* benchmark)) {
    func(this);
    return this;
}
Self* Benchmark::Setup(void (*setup)(const State&)) { return with(spec_.setup, setup); }
Self* Benchmark::Teardown(void (*teardown)(const State&)) { return with(spec_.teardown, teardown); }
Self* Benchmark::RangeMultiplier(int multiplier) {
    return with(spec_.range_multiplier, multiplier);
}
Self* Benchmark::MinTime(double t) { return with(spec_.min_time, t); }
Self* Benchmark::MinWarmUpTime(double t) { return with(spec_.min_warmup_time, t); }
Self* Benchmark::Iterations(IterationCount n) { return with(spec_.iterations, n); }
Self* Benchmark::Repetitions(int n) { return with(spec_.repetitions, n); }
Self* Benchmark::ReportAggregatesOnly(bool value) { return with(spec_.aggregates_only, value); }
Self* Benchmark::DisplayAggregatesOnly(bool value) { return with(spec_.aggregates_only, value); }
Self* Benchmark::MeasureProcessCPUTime() {
    spec_.process_cpu_time = true;
    spec_.unsupported.push_back("MeasureProcessCPUTime (glint reads the thread's CPU time)");
    return this;
}
Self* Benchmark::UseRealTime() { return with(spec_.use_real_time, true); }
Self* Benchmark::UseManualTime() { return with(spec_.use_manual_time, true); }
Self* Benchmark::Complexity(BigO complexity) { return with(spec_.complexity, complexity); }
Self* Benchmark::Complexity(BigOFunc*) {
    spec_.complexity = oLambda;
    spec_.unsupported.push_back("Complexity(BigOFunc*) (glint fits its own models)");
    return this;
}
Self* Benchmark::ComputeStatistics(const std::string& name, StatisticsFunc*, StatisticUnit) {
    spec_.unsupported.push_back("ComputeStatistics(\"" + name + "\")");
    return this;
}
Self* Benchmark::Threads(int t) {
    spec_.thread_counts.push_back(t);
    return this;
}
Self* Benchmark::ThreadRange(int min_threads, int max_threads) {
    for (std::int64_t v : glint::gbench::add_range(min_threads, max_threads, 2))
        spec_.thread_counts.push_back(static_cast<int>(v));
    return this;
}
Self* Benchmark::DenseThreadRange(int min_threads, int max_threads, int stride) {
    for (int i = min_threads; i < max_threads; i += stride) spec_.thread_counts.push_back(i);
    spec_.thread_counts.push_back(max_threads);
    return this;
}
Self* Benchmark::ThreadPerCpu() {
    spec_.thread_counts.push_back(glint::gbench::num_cpus());
    return this;
}

}  // namespace benchmark::internal

namespace glint::gbench {

int num_cpus() {
    const unsigned n = std::thread::hardware_concurrency();  // the online CPUs (0: unknown)
    return n > 0 ? static_cast<int>(n) : 1;
}

std::vector<std::int64_t> add_range(std::int64_t lo, std::int64_t hi, int mult) {
    if (hi < lo || mult < 2)
        throw std::invalid_argument("Range: needs lo <= hi and a multiplier of at least 2");
    std::vector<std::int64_t> out{lo};
    if (lo == hi) return out;
    if (lo + 1 == hi) return {lo, hi};
    const std::int64_t lo_inner = lo + 1, hi_inner = hi - 1;
    auto powers = [&](std::int64_t from, std::int64_t to) {  // powers of mult in [from, to]
        std::vector<std::int64_t> p;
        for (std::int64_t i = 1; i <= to; i *= mult) {
            if (i >= from) p.push_back(i);
            if (i > INT64_MAX / mult) break;
        }
        return p;
    };
    if (lo_inner < 0) {
        std::vector<std::int64_t> neg = powers(-std::min<std::int64_t>(hi_inner, -1), -lo_inner);
        for (auto it = neg.rbegin(); it != neg.rend(); ++it) out.push_back(-*it);
    }
    if (lo < 0 && hi >= 0) out.push_back(0);
    if (hi_inner > 0)
        for (std::int64_t v : powers(std::max<std::int64_t>(lo_inner, 1), hi_inner))
            out.push_back(v);
    if (hi != out.back()) out.push_back(hi);
    return out;
}

}  // namespace glint::gbench
