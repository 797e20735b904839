// <glint/bench.hpp>: registering benchmarks.
//   GLINT_BENCH("sort/1000") {
//       auto data = make_input(1000);                                // setup: not measured
//       glint::iter([&] { glint::black_box(sort_copy(data)); });    // measured
//   }
//
// Without --bench each case runs once as a plain test. The measured unit is the whole body,
// unless it calls glint::iter (the callable alone; its loop is instantiated in the caller, no
// indirect call per iteration) or glint::bench_case (one row per call, measured after the body
// returns: each case owns its state, capture by value).
// Rationale and details: "<glint/bench.hpp>" in glint's documentation (rationale.md).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <glint/params.hpp>

namespace glint {

// ---- black_box -----------------------------------------------------------------------------
// An identity the optimizer cannot see through, and that copies nothing: a register-sized value
// stays in a register (no memory clobber, so `x = black_box(x + x)` costs the add and nothing
// else); any other lvalue is forced to memory and returned as the same reference (so
// `to_lower(black_box(s))` reads `s` itself, as Google Benchmark's DoNotOptimize does); any
// other rvalue is forced to memory and moved out.
namespace detail {
template <class T>
inline constexpr bool kInRegister = (std::is_integral_v<T> || std::is_pointer_v<T> ||
                                     std::is_enum_v<T>)&&sizeof(T) <= sizeof(void*);
template <class T>  // what black_box(T&&) returns: a register value, the lvalue, a moved value
using BlackBoxed =
    std::conditional_t<kInRegister<std::remove_cvref_t<T>> || !std::is_lvalue_reference_v<T>,
                       std::remove_cvref_t<T>, T&>;
}  // namespace detail

template <class T>
[[gnu::always_inline]] inline detail::BlackBoxed<T> black_box(T&& value) noexcept(
    std::is_lvalue_reference_v<detail::BlackBoxed<T>> ||
    std::is_nothrow_constructible_v<detail::BlackBoxed<T>, T&&>) {
    if constexpr (detail::kInRegister<std::remove_cvref_t<T>>) {
        std::remove_cvref_t<T> copy = value;
        asm volatile("" : "+r"(copy));
        return copy;
    } else {
        asm volatile("" : : "r"(&value) : "memory");
        return std::forward<T>(value);
    }
}

// Marks an object as read and written without copying it.
template <class T>
[[gnu::always_inline]] inline void black_box_ref(T& value) noexcept {
    asm volatile("" : : "r"(&value) : "memory");
}

// ---- client metrics ------------------------------------------------------------------------
// A throughput or level column of a row: a GLINT_BENCH option (its whole-body and iter rows),
// a glint::iter / iter_batched option (that call's rows), or a bench_case's CaseInfo.metrics.
// rate: amount per iteration / median time per iteration (a "B" metric renders as a "B/s"
// column); level: amount as is, under the unit's name; clock: amount (ticks per ns) x median
// ns per iteration, the median in another clock's units (an instruction-level case's TSC
// ticks, <glint/asm.hpp>); in_unit: below. `param`, when set, names a parameter of the
// registration (glint::range / glint::values) whose value in each row multiplies the amount. An
// iter's metric replaces the registration's metric of the same column. Not measured: "—".
// estimated: the amount is an estimate, so the cell prints "≈" (JSON: estimatedMetrics).
struct Metric {
    // in_unit: amount x the row's time in units of the instruction its batch times beside every
    // sample (an instruction-level case's add-cycles, <glint/asm.hpp>; "—" on rows without one).
    enum Mode { rate, level, clock, in_unit };
    std::string unit;
    double amount = 0;
    Mode mode = rate;
    std::string param = {};  // "": the amount as given
    bool estimated = false;
};
// A rate of `amount` units per unit of parameter `param`: per_param("B", "len") is len B/iter.
inline Metric per_param(std::string unit, std::string param, double amount = 1) {
    return Metric{std::move(unit), amount, Metric::rate, std::move(param)};
}

// The number of the thread running a multi-threaded case's callable (glint::threads): 0 to
// N - 1, 0 on the thread that runs the body and outside such cases. Index per-thread state
// with it (each thread's own slot of an array sized glint::param("threads")).
unsigned thread_index() noexcept;

// Provenance stamped into the run header and JSON meta.provenance (deduplicated, first-seen
// order). Outside --bench it is inert.
void bench_provenance(std::string_view line);

// ---- per-case options ----------------------------------------------------------------------
// Iterations pinned per sample (batched cases) or the exact number of timed calls (bench_case).
struct Iterations {
    std::uint64_t count = 0;
};
inline Iterations iterations(std::uint64_t n) { return Iterations{n}; }

// The outcome of an `after` hook: ok, or an error that turns the case into an error row.
class Outcome {
  public:
    Outcome() = default;
    static Outcome fail(std::string message) { return Outcome(std::move(message)); }
    bool ok() const { return !error_; }
    const std::string& error() const { return *error_; }

  private:
    explicit Outcome(std::string message) : error_(std::move(message)) {}
    std::optional<std::string> error_;
};
inline Outcome ok() { return {}; }
inline Outcome fail(std::string message) { return Outcome::fail(std::move(message)); }

// Describes one bench_case row. Labels are the --group-by/--filter dimensions.
struct CaseInfo {
    std::string name;
    std::vector<std::pair<std::string, std::string>> labels;
    std::vector<Metric> metrics;
    std::function<void()> setup;     // untimed, once before the case is measured
    std::function<void()> teardown;  // untimed, once after
    std::uint64_t iterations = 0;    // 0: sample until --bench-min-time is met
};

namespace detail {

// A compiled batch: run(ctx, n) executes the measured callable n times with it inlined.
// A batch with inputs (glint::iter_batched) also has prepare: prepare(ctx, n) builds the inputs
// of the next n iterations, and every caller runs it, untimed and outside any counting bracket,
// before each run(ctx, n) of n > 0, with n <= max_window when max_window is set. run() aborts
// when asked for more iterations than were prepared and not yet run.
// A batch with a reference (instruction-level cases, <glint/asm.hpp>) is timed by the difference
// method: each sample is run(ctx, n) minus reference(ctx, n), over n * span iterations (what
// run does beyond reference, n times); counting passes count both and keep the difference
// (asm.md in glint's documentation).
struct Batch {
    void (*run)(void* ctx, std::uint64_t n) = nullptr;
    void* ctx = nullptr;
    void (*prepare)(void* ctx, std::uint64_t n) = nullptr;  // nullptr: no inputs
    std::uint64_t max_window = 0;  // at most this many iterations per prepare/run (0: any)
    void (*reference)(void* ctx, std::uint64_t n) = nullptr;  // nullptr: no difference
    std::uint64_t span =
        1;  // with a reference: iterations one run(ctx, 1) adds to reference(ctx, 1)
    // A batch that times itself (a multi-threaded case's team): its reading of the last
    // run(ctx, n), which replaces the caller's clock around run.
    struct SelfTiming {
        double wall_ns = 0;  // the slowest thread's own time, from its start to its finish
        double cpu_ns =
            0;  // wall_ns less the most CPU time any thread lost inside its own (nan: unread)
        // A core-speed probe after the run, ns per dependent add: a team's slowest thread's
        // (nan: not probed).
        double core_step_ns = std::numeric_limits<double>::quiet_NaN();
    };
    SelfTiming (*self_timing)(void* ctx) = nullptr;
    // With a reference, a unit pair may be timed in every sample too, right after run and
    // reference, by the same difference: unit_run(ctx, n) does n * unit_span unit instructions
    // (one dependent add) beyond unit_reference(ctx, n). The row is then also read in units of
    // the unit instruction, sample by sample (Metric::in_unit).
    void (*unit_run)(void* ctx, std::uint64_t n) = nullptr;  // nullptr: no unit
    void (*unit_reference)(void* ctx, std::uint64_t n) = nullptr;
    std::uint64_t unit_span = 1;
};

// Keeps a result alive past the optimizer: registers stay in registers, the rest in memory.
template <class R>
[[gnu::always_inline]] inline void sink(R& result) {
    if constexpr ((std::is_integral_v<R> || std::is_pointer_v<R>)&&sizeof(R) <= sizeof(void*)) {
        black_box(result);
    } else {
        black_box_ref(result);
    }
}

template <class F>
[[gnu::noinline]] void run_batch(void* ctx, std::uint64_t n) {
    F& fn = *static_cast<F*>(ctx);
    for (std::uint64_t i = 0; i < n; ++i) {
        if constexpr (std::is_void_v<decltype(fn())>) {
            fn();
        } else {
            auto result = fn();
            sink(result);
        }
    }
}

// A per-call case: timed() is measured, after() runs untimed and releases the result.
struct PerCall {
    virtual ~PerCall() = default;
    virtual void timed() = 0;
    virtual Outcome after() = 0;  // may throw; both become an error row
};

template <class Timed, class After>
class PerCallImpl final : public PerCall {
    using Result = std::invoke_result_t<Timed&>;
    static constexpr bool kVoid = std::is_void_v<Result>;
    using Slot = std::conditional_t<kVoid, bool, std::optional<Result>>;

  public:
    PerCallImpl(Timed timed, After after) : timed_(std::move(timed)), after_(std::move(after)) {}
    void timed() override {
        if constexpr (kVoid) {
            timed_();
        } else {
            slot_.emplace(timed_());
        }
    }
    Outcome after() override {
        if constexpr (kVoid) {
            return finish([&] { return after_(); });
        } else {
            struct Reset {
                Slot& s;
                ~Reset() { s.reset(); }
            } reset{slot_};
            return finish([&] { return after_(*slot_); });
        }
    }

  private:
    template <class Call>
    static Outcome finish(Call&& call) {
        using R = decltype(call());
        if constexpr (std::is_void_v<R>) {
            call();
            return {};
        } else if constexpr (std::is_same_v<R, bool>) {
            return call() ? Outcome{} : Outcome::fail("after() returned false");
        } else {
            static_assert(std::is_same_v<R, Outcome>,
                          "after must return void, bool or glint::Outcome");
            return call();
        }
    }
    Timed timed_;
    After after_;
    Slot slot_{};
};

struct NoAfter {
    template <class... A>
    void operator()(A&&...) const {}
};

// What a glint::iter / iter_batched call's options say.
struct IterOptions {
    Iterations pinned;
    std::vector<Metric> metrics;
};

// Takes glint::iter's options (glint::asm_iter's too) into `o`.
template <class... Options>
void take_iter_options(IterOptions& o, Options... options) {
    [[maybe_unused]] auto take = [&](auto option) {
        if constexpr (std::is_same_v<decltype(option), Iterations>) o.pinned = option;
        else if constexpr (std::is_same_v<decltype(option), Metric>)
            o.metrics.push_back(std::move(option));
        else
            static_assert(sizeof(option) == 0,
                          "glint::iter options: glint::iterations, glint::Metric");
    };
    (take(std::move(options)), ...);
}

// Implemented by the runner.
void run_iter(Batch batch, IterOptions options);
void add_case(CaseInfo info, std::unique_ptr<PerCall> body);

// How the translation unit that registered a case was compiled (the run header warns about
// unoptimised builds and enabled assertions: their timings are not representative).
struct BuildFlags {
    bool optimized = false;
    bool assertions = false;
};

// What a registration's options say.
struct RegistrationOptions {
    std::uint64_t pinned = 0;
    std::vector<Metric> metrics;
    std::vector<Param> params;
    std::optional<Complexity> complexity;
};

struct Registration {
    // Options: glint::iterations(n), any number of glint::Metric columns (a Metric's param names
    // one of the registration's) and glint::range / glint::values parameters, glint::complexity().
    template <class... Options>
    Registration(const char* name, void (*body)(), Batch whole_body, BuildFlags flags,
                 const char* file, int line, Options... options) {
        RegistrationOptions o;
        (take(std::move(options), o), ...);
        add(name, body, whole_body, flags, file, line, std::move(o));
    }
    static void add(const char* name, void (*body)(), Batch whole_body, BuildFlags flags,
                    const char* file, int line, RegistrationOptions options);

  private:
    static void take(Iterations option, RegistrationOptions& o) { o.pinned = option.count; }
    static void take(Metric option, RegistrationOptions& o) {
        o.metrics.push_back(std::move(option));
    }
    static void take(Param option, RegistrationOptions& o) {
        o.params.push_back(std::move(option));
    }
    static void take(Complexity option, RegistrationOptions& o) {
        o.complexity = std::move(option);
    }
};

}  // namespace detail

// Measures only `fn` (code before the call is setup). Outside --bench, calls fn once.
// Options, any number in any order: glint::iterations(n), glint::Metric columns of this call's
// row, whose amounts the body may compute from its parameters:
//   glint::iter([&] { return hash(s); }, glint::Metric{"B", double(s.size())});
template <class F, class... Options>
void iter(F&& fn, Options... options) {
    using Fn = std::remove_reference_t<F>;
    detail::IterOptions o;
    detail::take_iter_options(o, std::move(options)...);
    detail::run_iter({&detail::run_batch<Fn>, const_cast<void*>(static_cast<const void*>(&fn))},
                     std::move(o));
}
// The pinned form alone (it keeps glint::iter(fn, {}) compiling).
template <class F>
void iter(F&& fn, Iterations pinned) {
    using Fn = std::remove_reference_t<F>;
    detail::run_iter({&detail::run_batch<Fn>, const_cast<void*>(static_cast<const void*>(&fn))},
                     {pinned, {}});
}

// One row per call. `timed` is measured one call per sample; its result flows into `after`,
// which runs untimed after each call to verify and release it (void, bool or glint::Outcome;
// it may throw). Outside --bench the case runs once, immediately.
template <class Timed, class After>
void bench_case(CaseInfo info, Timed timed, After after) {
    detail::add_case(std::move(info), std::make_unique<detail::PerCallImpl<Timed, After>>(
                                          std::move(timed), std::move(after)));
}
template <class Timed>
void bench_case(CaseInfo info, Timed timed) {
    bench_case(std::move(info), std::move(timed), detail::NoAfter{});
}

}  // namespace glint

#if defined(__OPTIMIZE__)
#define GLINT_DETAIL_OPTIMIZED true
#else
#define GLINT_DETAIL_OPTIMIZED false
#endif
#if defined(NDEBUG)
#define GLINT_DETAIL_ASSERTIONS false
#else
#define GLINT_DETAIL_ASSERTIONS true
#endif

#define GLINT_DETAIL_CAT2(a, b) a##b
#define GLINT_DETAIL_CAT(a, b) GLINT_DETAIL_CAT2(a, b)
#define GLINT_DETAIL_BENCH(id, name, ...)                                             \
    static void id();                                                                 \
    static const ::glint::detail::Registration GLINT_DETAIL_CAT(id, _registration){   \
        name,                                                                         \
        &id,                                                                          \
        ::glint::detail::Batch{&::glint::detail::run_body_batch<&id>, nullptr},       \
        ::glint::detail::BuildFlags{GLINT_DETAIL_OPTIMIZED, GLINT_DETAIL_ASSERTIONS}, \
        __FILE__,                                                                     \
        __LINE__ __VA_OPT__(, ) __VA_ARGS__};                                         \
    static void id()

// GLINT_BENCH("name") { body },  GLINT_BENCH("name", glint::iterations(1000)) { body },
// GLINT_BENCH("name", glint::Metric{"B", 64}) { body }  (a B/s column),
// GLINT_BENCH("name", glint::range("len", 16, 4096, 16), glint::per_param("B", "len")) { body },
// GLINT_BENCH("name", glint::range("size", 1 << 10, 1 << 20, 4), glint::complexity()) { body }
#define GLINT_BENCH(name, ...) \
    GLINT_DETAIL_BENCH(GLINT_DETAIL_CAT(glint_bench_, __COUNTER__), name __VA_OPT__(, ) __VA_ARGS__)

// glint::iter_batched builds on the declarations above.
#include <glint/iter_batched.hpp>
