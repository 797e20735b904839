// The drop-in's instances as glint cases: each instance's body calls the benchmark function
// with a State of glint's choosing, under glint::iter's protocol (engine/gbench/dropin.hpp).
#include <array>
#include <barrier>
#include <cmath>
#include <cstdio>
#include <memory>
#include <set>
#include <stdexcept>
#include <utility>

#include <glint/bench.hpp>

#include "engine/gbench/complexity.hpp"
#include "engine/gbench/dropin.hpp"

namespace glint::gbench {
namespace {

constexpr std::size_t kMaxInstances = 4096;

std::vector<Instance> g_instances;
std::uint64_t g_min_iterations = 0;  // --benchmark_min_time=Nx

// One call of the benchmark function with `n` iterations on the calling thread.
struct Call {
    const Instance* instance = nullptr;
    benchmark::State::Reading reading;        // thread 0's last call
    std::unique_ptr<std::barrier<>> barrier;  // threads > 1: where the loops start and end
};

void sync(void* barrier) { static_cast<std::barrier<>*>(barrier)->arrive_and_wait(); }

void call_once(Call& c, std::uint64_t n) {
    const Instance& in = *c.instance;
    benchmark::State st(static_cast<benchmark::IterationCount>(n), in.args,
                        static_cast<int>(glint::thread_index()), in.threads,
                        in.family->benchmark->spec().use_manual_time);
    if (c.barrier) st.set_sync(&sync, c.barrier.get());
    in.family->benchmark->Run(st);
    if (st.error_occurred()) throw std::runtime_error("SkipWithError: " + st.error_message());
    if (!st.reading().finished)
        throw std::runtime_error(
            "the benchmark function returned without running its loop "
            "(for (auto _ : state) or while (state.KeepRunning()))");
    if (glint::thread_index() == 0) c.reading = st.reading();
}

void run_calls(void* ctx, std::uint64_t n) { call_once(*static_cast<Call*>(ctx), n); }

glint::detail::Batch::SelfTiming timing(void* ctx) {
    const auto& r = static_cast<Call*>(ctx)->reading;
    return {r.wall_ns, r.cpu_ns < 0 ? NAN : r.cpu_ns};
}

// The counters of a one-call probe as glint metrics, each an amount per iteration.
std::vector<glint::Metric> metrics_of(const benchmark::State& st) {
    using benchmark::Counter;
    std::vector<glint::Metric> out;
    const double iters =
        static_cast<double>(std::max<benchmark::IterationCount>(1, st.iterations()));
    for (const auto& [name, c] : st.counters) {
        const bool rate = (c.flags & Counter::kIsRate) != 0;
        const bool invariant = (c.flags & Counter::kIsIterationInvariant) != 0;
        double amount = c.value;
        if (rate && !invariant) amount /= iters;
        if (!rate && (c.flags & Counter::kAvgIterations)) amount /= iters;
        if (!rate && invariant) amount *= iters;
        std::string unit = name == "bytes_per_second"   ? "B"
                           : name == "items_per_second" ? "item"
                                                        : name;
        out.push_back(
            glint::Metric{unit, amount, rate ? glint::Metric::rate : glint::Metric::level});
    }
    return out;
}

void run_instance(std::size_t index) {
    const Instance& in = g_instances.at(index);
    const auto& spec = in.family->benchmark->spec();
    if (spec.setup) {
        benchmark::State st(1, in.args, 0, in.threads, spec.use_manual_time);
        spec.setup(st);
    }
    Call call{&in, {}, nullptr};
    if (in.threads > 1)
        call.barrier = std::make_unique<std::barrier<>>(static_cast<std::ptrdiff_t>(in.threads));
    benchmark::State first(1, in.args, 0, in.threads, spec.use_manual_time);
    in.family->benchmark->Run(first);
    if (first.error_occurred()) throw std::runtime_error("SkipWithError: " + first.error_message());
    record_complexity_n(in.name, first.complexity_length_n());
    static bool label_said = false;  // once per run
    if (!first.label().empty() && !std::exchange(label_said, true))
        std::fprintf(stderr,
                     "glint: Google Benchmark drop-in: SetLabel's label is not shown (first set "
                     "by %s)\n",
                     in.name.c_str());
    glint::detail::IterOptions options;
    options.metrics = metrics_of(first);
    const std::uint64_t pinned =
        spec.iterations > 0 ? static_cast<std::uint64_t>(spec.iterations) : g_min_iterations;
    options.pinned = glint::iterations(pinned);
    glint::detail::Batch batch{&run_calls, &call};
    if (in.threads == 1) batch.self_timing = &timing;
    glint::detail::run_iter(batch, std::move(options));
    if (spec.teardown) {
        benchmark::State st(1, in.args, 0, in.threads, spec.use_manual_time);
        spec.teardown(st);
    }
}

template <std::size_t I>
void trampoline() {
    run_instance(I);
}
template <std::size_t... I>
constexpr std::array<void (*)(), sizeof...(I)> trampolines(std::index_sequence<I...>) {
    return {&trampoline<I>...};
}
template <std::size_t... I>
constexpr std::array<glint::detail::Batch, sizeof...(I)> whole_bodies(std::index_sequence<I...>) {
    return {glint::detail::Batch{&glint::detail::run_body_batch<&trampoline<I>>, nullptr}...};
}
constexpr auto kBodies = trampolines(std::make_index_sequence<kMaxInstances>());
constexpr auto kWholeBodies = whole_bodies(std::make_index_sequence<kMaxInstances>());

}  // namespace

std::vector<std::string> register_instances(const std::vector<Instance>& selected,
                                            const Flags& flags) {
    if (selected.size() > kMaxInstances)
        throw std::invalid_argument(
            "glint's Google Benchmark drop-in runs at most 4096 instances at once; " +
            std::to_string(selected.size()) + " were selected: narrow --benchmark_filter");
    g_instances = selected;
    g_min_iterations = flags.min_iterations.value_or(0);
    std::set<std::string> notes;
    for (std::size_t i = 0; i < g_instances.size(); ++i) {
        const Instance& in = g_instances[i];
        const auto& spec = in.family->benchmark->spec();
        for (const std::string& u : spec.unsupported)
            throw std::invalid_argument(in.name + ": " + u +
                                        " is not supported by glint's Google Benchmark drop-in");
        glint::detail::RegistrationOptions o;
        if (in.threads > 1) o.params.push_back(glint::threads({in.threads}));
        if (in.threads > 1)
            notes.insert(
                "threads:N: each thread's whole call is timed (code before the loop "
                "included); the row's time is the slowest thread's per iteration");
        if (spec.complexity != benchmark::oNone)
            notes.insert(
                "Complexity(): fitted by glint over the instances' medians (relative "
                "residuals; oAuto says 'undecided' where two models fit about as well)");
        if (spec.repetitions > 0 || spec.min_time > 0)
            notes.insert(
                "Repetitions()/MinTime() on a family: not applied; glint samples each "
                "instance 32 times (--benchmark_repetitions repeats the whole run)");
        if (spec.use_manual_time)
            notes.insert("UseManualTime: the time is the sum of SetIterationTime per call");
        glint::detail::Registration::add(
            in.name.c_str(), kBodies[i], kWholeBodies[i],
            glint::detail::BuildFlags{in.family->optimized, in.family->assertions},
            "<benchmark/benchmark.h>", 0, std::move(o));
    }
    if (!g_instances.empty()) {
        notes.insert(
            "each instance is a glint case: 32 samples of a loop glint sizes, reported "
            "as median ± spread; the time is wall-clock (real) time, CPU time beside it");
        notes.insert(
            "counters, SetBytesProcessed and SetItemsProcessed are read from a first "
            "call of one iteration, as amounts per iteration");
    }
    return {notes.begin(), notes.end()};
}

}  // namespace glint::gbench
