// <glint/iter_batched.hpp>: per-iteration setup, glint::iter_batched (included by
// <glint/bench.hpp>, whose declarations it builds on).
#pragma once

#include <glint/bench.hpp>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace glint {
namespace detail {

// glint::iter_batched's state: the callables and the inputs of the window being run.
template <class Setup, class F>
struct BatchedInputs {
    struct Slot {  // a wrapper, so that an Input of bool is not a std::vector<bool> element
        std::invoke_result_t<Setup&> value;
    };
    Setup& setup;
    F& fn;
    std::vector<Slot> inputs;
    std::uint64_t next = 0;  // the first prepared input not yet run
};

[[noreturn]] void unprepared_window(std::uint64_t asked, std::uint64_t ready);

template <class State>
void prepare_inputs(void* ctx, std::uint64_t n) {
    State& s = *static_cast<State*>(ctx);
    s.inputs.clear();  // the last window's inputs die here, untimed
    s.inputs.reserve(n);
    for (std::uint64_t i = 0; i < n; ++i) s.inputs.push_back({s.setup()});
    s.next = 0;
}

template <class State>
[[gnu::noinline]] void run_inputs(void* ctx, std::uint64_t n) {
    State& s = *static_cast<State*>(ctx);
    if (n > s.inputs.size() - s.next) unprepared_window(n, s.inputs.size() - s.next);
    auto* in = s.inputs.data() + s.next;
    s.next += n;
    for (std::uint64_t i = 0; i < n; ++i) {
        if constexpr (std::is_void_v<decltype(s.fn(in[i].value))>) {
            s.fn(in[i].value);
        } else {
            auto result = s.fn(in[i].value);
            sink(result);
        }
    }
}

template <void (*Body)()>
[[gnu::noinline]] void run_body_batch(void*, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) Body();
}

}  // namespace detail

// glint::iter_batched's cap on the inputs alive at once, the most calls a window holds.
struct MaxInputs {
    std::uint64_t count = 0;
};
inline MaxInputs max_inputs(std::uint64_t n) { return MaxInputs{n}; }
inline constexpr std::uint64_t kDefaultMaxInputs = 1024;

// Per-iteration setup: measures fn(input) where each iteration gets a fresh input from setup().
//
//   glint::iter_batched([&] { return unsorted; },                 // setup: a copy, untimed
//                       [](std::vector<int>& v) { std::sort(v.begin(), v.end()); });
//
// A sample runs as windows: setup() builds a window's inputs, untimed, then the window of
// fn(input) calls is timed as one (no clock read per iteration; the clock's own empty bracket
// is subtracted per window), and the inputs die, untimed, when the next window is built.
// Counting passes bracket the fn calls only, in the same windows. A window holds about 20 us of
// calls (sized from the latest sample; at least 1, at most glint::max_inputs(k), default 1024):
// its inputs, just written by setup(), are still cache-warm when fn uses them, as in a loop that
// builds an input and uses it. Memory: one window's inputs are alive at once (at most k × the
// input's size); lower k for large inputs of a fast fn. fn takes the input by reference (by
// value would copy it inside the timed window). When setup() dominates, the doubling of
// iterations also stops once a sample's wall time, setup included, reaches the case's budget /
// samples (max(1 s, 200 × --bench-min-time) / 32). Options: glint::iterations(n) (a probe of up to 16 calls
// sizes the windows first), glint::max_inputs(k). Outside --bench: one setup, one call.
template <class Setup, class F, class... Options>
void iter_batched(Setup&& setup, F&& fn, Options... options) {
    using State = detail::BatchedInputs<std::remove_reference_t<Setup>, std::remove_reference_t<F>>;
    static_assert(!std::is_void_v<std::invoke_result_t<std::remove_reference_t<Setup>&>>,
                  "glint::iter_batched: setup() must return the input of one iteration");
    Iterations pinned;
    MaxInputs cap{kDefaultMaxInputs};
    [[maybe_unused]] auto take = [&](auto option) {
        if constexpr (std::is_same_v<decltype(option), Iterations>) pinned = option;
        else if constexpr (std::is_same_v<decltype(option), MaxInputs>) cap = option;
        else static_assert(sizeof(option) == 0, "iter_batched options: glint::iterations, glint::max_inputs");
    };
    (take(options), ...);
    State state{setup, fn, {}, 0};
    detail::run_iter({&detail::run_inputs<State>, &state, &detail::prepare_inputs<State>,
                      cap.count ? cap.count : kDefaultMaxInputs},
                     pinned);
}

}  // namespace glint
