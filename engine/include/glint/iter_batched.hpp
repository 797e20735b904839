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
// Contracts: setup() runs untimed; a window of fn calls (about 20 us, at most max_inputs(k),
// default 1024) is timed as one, so at most k inputs are alive at once; fn takes the input by
// reference. Options: glint::iterations(n), glint::max_inputs(k), glint::Metric columns (as
// glint::iter's). Outside --bench: one setup, one call.
// Rationale and details: "glint::iter_batched" in glint's documentation (rationale.md).
template <class Setup, class F, class... Options>
void iter_batched(Setup&& setup, F&& fn, Options... options) {
    using State = detail::BatchedInputs<std::remove_reference_t<Setup>, std::remove_reference_t<F>>;
    static_assert(!std::is_void_v<std::invoke_result_t<std::remove_reference_t<Setup>&>>,
                  "glint::iter_batched: setup() must return the input of one iteration");
    detail::IterOptions o;
    MaxInputs cap{kDefaultMaxInputs};
    [[maybe_unused]] auto take = [&](auto option) {
        if constexpr (std::is_same_v<decltype(option), Iterations>) o.pinned = option;
        else if constexpr (std::is_same_v<decltype(option), MaxInputs>) cap = option;
        else if constexpr (std::is_same_v<decltype(option), Metric>)
            o.metrics.push_back(std::move(option));
        else
            static_assert(
                sizeof(option) == 0,
                "iter_batched options: glint::iterations, glint::max_inputs, glint::Metric");
    };
    (take(std::move(options)), ...);
    State state{setup, fn, {}, 0};
    detail::run_iter({&detail::run_inputs<State>, &state, &detail::prepare_inputs<State>,
                      cap.count ? cap.count : kDefaultMaxInputs},
                     std::move(o));
}

}  // namespace glint
