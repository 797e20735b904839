#include "engine/profile/sampled_pass.hpp"

#include <chrono>

namespace glint::engine::profile {
namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t since(Clock::time_point start) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
}

// The entry functions: one call each, never inlined, never a tail call (the empty asm after
// the call keeps the return address inside them), so every complete stack holds the return
// address of that one call.
[[gnu::noinline]] void sampled_batch(const glint::detail::Batch* batch, std::uint64_t n) {
    batch->run(batch->ctx, n);
    asm volatile("" ::: "memory");
}

[[gnu::noinline]] void sampled_call(glint::detail::PerCall* call) {
    call->timed();
    asm volatile("" ::: "memory");
}

// Probes called through the same call instructions: they record where those calls return to.
[[gnu::noinline]] void record_return(void* slot, std::uint64_t) {
    *static_cast<std::uint64_t*>(slot) = reinterpret_cast<std::uint64_t>(__builtin_return_address(0));
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

PassOutcome run_sampled(const Workload& work, os::Sampler& sampler, const PassLimits& limits,
                        const os::SampleSink& sink) {
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
                const Clock::time_point chunk = Clock::now();
                sampler.enable();
                sampled_batch(&work.batch, n);
                sampler.disable();
                const double took = static_cast<double>(since(chunk));
                out.iterations += n;
                sampler.drain(sink);
                if (took < kChunkNs && n < (std::uint64_t{1} << 62)) n *= 2;
            } while (!done());
        } else {
            do {
                sampler.enable();
                sampled_call(work.per_call);
                sampler.disable();
                ++out.iterations;
                work.after_one();
                sampler.drain(sink);
            } while (!done());
        }
    }
    sampler.drain(sink);
    out.times_ok = sampler.times(out.times);
    out.wall_ns = since(start);
    return out;
}

}  // namespace glint::engine::profile
