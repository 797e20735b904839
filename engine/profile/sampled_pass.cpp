#include "engine/profile/sampled_pass.hpp"

#include <chrono>
#include <cmath>
#include <limits>

#include "engine/model/not_measured.hpp"
#include "engine/timing/windows.hpp"

#if defined(__ELF__)
extern "C" const char __start_glint_sampled_pass[];  // NOLINT: the linker defines both
extern "C" const char __stop_glint_sampled_pass[];
#endif

namespace glint::engine::profile {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint64_t kProbeCalls = 3;  // per-call: calls toggled one by one before choosing

std::uint64_t since(Clock::time_point start) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
}

// Everything the pass runs while the sampler is enabled, other than the case's code and the
// toggles (os::Sampler::toggle_code()), is in this section and keeps frame pointers
// (engine/CMakeLists.txt): a sample whose innermost address is in it is glint's own.
// Never inlined nor cloned (a clone's calls would return elsewhere than the probes'). Off ELF
// there is no such section (nor a sampler): the range is empty.
#if !defined(__ELF__)
#define GLINT_PASS_CODE [[gnu::noinline]]
#elif defined(__clang__)
#define GLINT_PASS_CODE [[gnu::noinline, gnu::section("glint_sampled_pass")]]
#else
#define GLINT_PASS_CODE [[gnu::noipa, gnu::section("glint_sampled_pass")]]
#endif

// The entry functions: one call each, never inlined, never a tail call (the empty asm after
// the call keeps the return address inside them), so every complete stack holds the return
// address of that one call.
GLINT_PASS_CODE void sampled_batch(const glint::detail::Batch* batch, std::uint64_t n) {
    batch->run(batch->ctx, n);
    asm volatile("" ::: "memory");
}

GLINT_PASS_CODE void sampled_call(glint::detail::PerCall* call) {
    call->timed();
    asm volatile("" ::: "memory");
}

// after() in a grouped window: its samples hold this call's return address and are dropped.
GLINT_PASS_CODE void sampled_after(void (*fn)(void*, std::uint64_t), void* arg) {
    fn(arg, 0);
    asm volatile("" ::: "memory");
}

GLINT_PASS_CODE void run_after(void* work, std::uint64_t) {
    static_cast<const Workload*>(work)->after_one();
    asm volatile("" ::: "memory");
}

// The sampled windows: the sampler enabled around the calls into the case and nothing else.
GLINT_PASS_CODE void batch_window(const glint::detail::Batch* batch, std::uint64_t n,
                                  os::Sampler* sampler) {
    sampler->enable();
    sampled_batch(batch, n);
    sampler->disable();
}

GLINT_PASS_CODE void call_window(glint::detail::PerCall* call, os::Sampler* sampler) {
    sampler->enable();
    sampled_call(call);
    sampler->disable();
}

GLINT_PASS_CODE void grouped_window(const Workload* work, std::uint64_t calls,
                                    os::Sampler* sampler) {
    sampler->enable();
    for (std::uint64_t i = 0; i < calls; ++i) {
        sampled_call(work->per_call);
        sampled_after(&run_after, const_cast<Workload*>(work));
    }
    sampler->disable();
}

GLINT_PASS_CODE void empty_window(os::Sampler* sampler) {
    sampler->enable();
    sampler->disable();
}

// Probes called through the same call instructions: they record where those calls return to.
[[gnu::noinline]] void record_return(void* slot, std::uint64_t) {
    *static_cast<std::uint64_t*>(slot) =
        reinterpret_cast<std::uint64_t>(__builtin_return_address(0));
    asm volatile("" ::: "memory");
}

struct RecordReturn final : glint::detail::PerCall {
    std::uint64_t at = 0;
    [[gnu::noinline]] void timed() override {
        at = reinterpret_cast<std::uint64_t>(__builtin_return_address(0));
        asm volatile("" ::: "memory");
    }
    Outcome after() override { return {}; }
};

// Disables the sampler when the pass leaves, by return or by exception.
struct Disabled {
    os::Sampler& s;
    ~Disabled() { s.disable(); }
};

}  // namespace

std::vector<std::uint64_t> entry_returns() {
    static const std::vector<std::uint64_t> returns = [] {
        std::uint64_t batch_return = 0;
        const glint::detail::Batch probe{&record_return, &batch_return};
        sampled_batch(&probe, 0);
        RecordReturn call;
        sampled_call(&call);
        return std::vector<std::uint64_t>{batch_return, call.at};
    }();
    return returns;
}

PassCode pass_code() {
    PassCode code;
    code.entries = entry_returns();
    std::uint64_t after_return = 0;
    sampled_after(&record_return, &after_return);
    code.after = {after_return};
#if defined(__ELF__)
    code.pass = {reinterpret_cast<std::uint64_t>(__start_glint_sampled_pass),
                 reinterpret_cast<std::uint64_t>(__stop_glint_sampled_pass)};
#endif
    code.toggle = os::Sampler::toggle_code();
    return code;
}

CallSampling choose_call_sampling(double after_ns, double toggle_ns) {
    return after_ns < toggle_ns ? CallSampling::grouped : CallSampling::each_call;
}

PassOutcome run_sampled(const Workload& work, os::Sampler& sampler, const PassLimits& limits,
                        const os::SampleSink& sink, std::uint64_t window) {
    PassOutcome out;
    const Clock::time_point start = Clock::now();
    auto done = [&] {
        if (sampler.counts().samples >= limits.samples) return true;
        out.time_bound = static_cast<double>(since(start)) >= limits.time_ns;
        return out.time_bound;
    };
    {
        Disabled guard{sampler};
        if (work.batched()) {
            std::uint64_t n = 1;
            do {
                // A chunk of a batch with inputs runs as windows, each window's inputs built
                // with the sampler off (a batch without inputs is one window); the chunk's wall
                // time, setup included, sizes the next, so a costly setup keeps chunks short.
                const Clock::time_point chunk = Clock::now();
                const std::uint64_t w = has_inputs(work.batch) ? window : n;
                for_each_window(work.batch, n, w,
                                [&](std::uint64_t k) { batch_window(&work.batch, k, &sampler); });
                const double took = static_cast<double>(since(chunk));
                out.iterations += n;
                sampler.drain(sink);
                if (took < kChunkNs && n < (std::uint64_t{1} << 62)) n *= 2;
            } while (!done());
        } else {
            // The first calls toggle the sampler around each timed() and time after(); then
            // the calls are grouped when a toggle pair costs more than after().
            double toggle = kNan;
            for (std::uint64_t i = 0; i < kProbeCalls; ++i) {
                const Clock::time_point t = Clock::now();
                empty_window(&sampler);
                toggle = std::fmin(toggle, static_cast<double>(since(t)));
            }
            double after = kNan;
            std::uint64_t calls = 1;
            do {
                if (out.call_sampling == CallSampling::grouped) {
                    const Clock::time_point t = Clock::now();
                    grouped_window(&work, calls, &sampler);
                    out.iterations += calls;
                    if (static_cast<double>(since(t)) < kChunkNs &&
                        calls < (std::uint64_t{1} << 40))
                        calls *= 2;
                } else {
                    call_window(work.per_call, &sampler);
                    ++out.iterations;
                    const Clock::time_point t = Clock::now();
                    work.after_one();
                    after = std::fmin(after, static_cast<double>(since(t)));
                    if (out.iterations == kProbeCalls)
                        out.call_sampling = choose_call_sampling(after, toggle);
                }
                sampler.drain(sink);
            } while (!done());
            out.toggle_ns = toggle;
            out.after_ns = after;
        }
    }
    sampler.drain(sink);
    out.times_ok = sampler.times(out.times);
    out.wall_ns = since(start);
    return out;
}

}  // namespace glint::engine::profile
