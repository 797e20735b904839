#include "engine/counting/pass_runner.hpp"

#include <algorithm>
#include <vector>

#include "engine/timing/windows.hpp"

namespace glint::engine::counting {
namespace {

// A per-call case as a Body: n calls of timed() (the pass always passes n = 1).
void run_per_call(void* ctx, std::uint64_t n) {
    auto* call = static_cast<glint::detail::PerCall*>(ctx);
    for (std::uint64_t i = 0; i < n; ++i) call->timed();
}

}  // namespace

std::uint64_t pass_empties(std::uint64_t brackets) {
    return std::max(kMinPassEmpties, brackets / kEmptyEvery);
}

PassOutcome run_pass(ReadPath& path, const Workload& work, const PassPlan& plan) {
    PassOutcome out;
    if (!path.begin_pass()) {
        out.totals.ok = false;
        return out;
    }
    const bool batched = work.batched();
    const std::uint64_t batch = batched ? std::max<std::uint64_t>(plan.batch, 1) : 1;
    const std::uint64_t brackets = (plan.iterations + batch - 1) / batch;
    const std::uint64_t empties = pass_empties(brackets);
    const Body body = batched ? body_of(work.batch) : Body{&run_per_call, work.per_call};

    out.batch = batch;
    out.series.reserve(brackets);
    std::vector<GroupDelta>& empty = out.empties;
    empty.reserve(empties);
    // Before body bracket j, catch up to floor(empties * (2j + 1) / (2 * brackets)) empties:
    // evenly spread, half a stride before the first body bracket and after the last.
    auto catch_up = [&](std::uint64_t target) {
        while (empty.size() < target) empty.push_back(path.bracket(empty_body(), 0));
    };
    std::uint64_t left = plan.iterations;
    __extension__ using Wide = unsigned __int128;  // a GCC/Clang extension, outside ISO C++
    for (std::uint64_t j = 0; j < brackets; ++j) {
        catch_up(static_cast<std::uint64_t>((static_cast<Wide>(empties) * (2 * j + 1)) /
                                            (2 * brackets)));
        const std::uint64_t n = std::min(batch, left);
        if (batched) prepare_window(work.batch, n);  // iter_batched inputs: outside the bracket
        const GroupDelta delta = path.bracket(body, n);
        out.totals.add(delta);
        out.series.add(delta, n);
        left -= n;
        if (!batched) work.after_one();
    }
    catch_up(empties);
    path.end_pass();
    out.cost = mean_cost(empty);
    return out;
}

CombinedPass combine(const PassOutcome& pass, std::uint64_t iterations,
                     const BracketCost& fallback) {
    return combine_pass(pass.totals, pass.series, pass.empties,
                        pass.cost.measured ? pass.cost : fallback, iterations, pass.batch);
}

}  // namespace glint::engine::counting
