// <glint/bracket_cost.hpp>: what one counter bracket costs through each read path (user-space
// reads against ioctl + read(2)) and what that cost does to a short body's per-iteration counts.
//
//   glint::BracketCost cost;                 // opens the group --perf would open here
//   if (!cost.ok()) return fail(cost.failure());
//   glint::PathStudy s = cost.study(glint::BracketCost::Path::syscall, body, 20000, 20000);
//
// Contracts: counts the opening thread; never throws for the environment (ok() false, failure()
// says why; every study then fails); the user path exists only where the kernel grants it
// (user_path_absent() says why not); an unmeasured figure is nan, never 0; movable, not copyable.
// Rationale and details: "<glint/bracket_cost.hpp>" in glint's documentation (rationale.md).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>

#include <glint/bench.hpp>
#include <glint/detail/arch/arch.hpp>

namespace glint {

// One path studied over a body (BracketCost::study). Counts are of the anchor member.
struct PathStudy {
    static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    bool ok = false;
    std::string failure;           // why not, when !ok (figures not measured stay nan)
    std::uint64_t iterations = 0;  // body iterations per pass
    std::uint64_t batch = 0;       // iterations per bracket of the batched pass
    std::string clock;  // what timed the ns figures: the tick counter ("TSC", "CNTVCT") or
                        // "steady_clock" where it is not usable
    // One empty bracket (the median of 31 in one pass):
    double ns_per_bracket = kNaN;      // one whole bracket call
    double window_ns = kNaN;           // first to last counter read: the user path's stub or
                                       // compiled bracket alone; nan for syscall
    double cycles_per_bracket = kNaN;  // nan without a cycles member
    double anchor_per_bracket = kNaN;
    // The body, anchor per iteration; raw: nothing subtracted (what unbatched brackets report
    // is mostly the apparatus); the others subtract the pass's interleaved empty brackets as
    // the perf tier does (nan when the body is within that subtraction's noise).
    double batch1_raw = kNaN;  // every iteration bracketed
    double batch1 = kNaN;
    double batched_raw = kNaN;  // `batch` iterations per bracket
    double batched = kNaN;
    // How much more an unbatched bracket reports per iteration than a batched one (raw).
    double inflation() const { return batch1_raw / batched_raw; }
};

class BracketCost {
  public:
    enum class Path { user, syscall };

    BracketCost();  // opens the group and both paths (see the contracts above)
    ~BracketCost();
    BracketCost(BracketCost&&) noexcept;
    BracketCost& operator=(BracketCost&&) noexcept;
    BracketCost(const BracketCost&) = delete;
    BracketCost& operator=(const BracketCost&) = delete;

    bool ok() const;
    const std::string& failure() const;  // empty when ok()
    // The member the studies report, by its column name: "instr" (instructions, hardware
    // group) or "tc ns" (task-clock, software group); empty when the group has neither (the
    // studies then report its leader).
    const std::string& anchor() const;

    // The arch's user-space path: its name ("rdpmc", "user-access"), offered or not.
    const std::string& user_path_name() const;
    bool user_path_available() const;
    const std::string& user_path_absent() const;  // why not, when not available

    // Studies `path` over `body`, inlined into the loop as glint::iter inlines it: the cost of
    // one empty bracket, then `iterations` iterations counted twice, every iteration bracketed
    // and `batch` (clamped to 1..iterations) per bracket. Takes tens of ms for 20000 ~10 ns
    // iterations on the syscall path.
    template <class F>
    PathStudy study(Path path, F& body, std::uint64_t iterations, std::uint64_t batch) {
        using Fn = std::remove_reference_t<F>;
        return study_batch(
            path, {&detail::run_batch<Fn>, const_cast<void*>(static_cast<const void*>(&body))},
            iterations, batch);
    }

    // The calls per-call rows time. A pass of `path` (false: it cannot start, or the path is
    // absent); inside it, one empty bracket (false: a read or ioctl failed).
    bool begin_pass(Path path);
    bool bracket(Path path);
    void end_pass(Path path);
    // The syscall bracket's parts alone: its ioctl ENABLE + DISABLE pair (true when both
    // succeed; leaves the group stopped), and one read(2) of the group (the group's enabled
    // time in ns, 0 when the read fails).
    bool ioctl_pair();
    std::uint64_t group_read();

    // The bracket without counters: a serialised timestamp pair (x86-64: lfence; rdtsc ...
    // rdtscp; lfence, arm64: isb; mrs cntvct_el0), end - begin in ticks, inlined into the
    // caller. has_timestamp() is false where the arch has none (timestamp_pair() then returns
    // 0). timestamp_pair_ns() is its calibrated cost, the median of empty pairs, nan where the
    // ticks are not usable as a clock (no constant-rate counter the OS vouches for).
    static constexpr bool has_timestamp() { return arch::native::kHasTimestamp; }
    [[gnu::always_inline]] static std::uint64_t timestamp_pair() {
        const std::uint64_t begin = arch::native::timestamp_begin();
        return arch::native::timestamp_end() - begin;
    }
    static double timestamp_pair_ns();

  private:
    PathStudy study_batch(Path path, detail::Batch body, std::uint64_t iterations,
                          std::uint64_t batch);
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace glint
