// run_pass on a scripted read path: bracket sizes, interleaved empty brackets, after() outside
// the windows, and the subtraction that follows a drifting apparatus.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/counting/pass_runner.hpp"
#include "support/workloads.hpp"

using namespace glint;
using namespace glint::engine;
using namespace glint::engine::counting;
using glint::test::batched;

namespace {

// One member; each bracket counts `apparatus` plus 10 per iteration; records "E" for an empty
// bracket, "B<n>" for a body bracket, and "A" when after() runs (between brackets).
class ScriptedPath final : public ReadPath {
  public:
    std::string log;
    std::uint64_t apparatus = 100;
    bool fail_begin = false;
    bool in_bracket = false;

    std::string_view name() const override { return "scripted"; }
    std::string describe() const override { return "scripted"; }
    bool begin_pass() override { return !fail_begin; }
    GroupDelta bracket(Body body, std::uint64_t n) override {
        const bool empty = body.run == empty_body().run;
        log += empty ? "E" : "B" + std::to_string(n);
        in_bracket = true;
        body.run(body.ctx, n);
        in_bracket = false;
        GroupDelta d;
        d.size = 1;
        d.counts[0] = apparatus + (empty ? 0 : 10 * n);
        d.enabled = d.running = 1000;
        d.ok = true;
        return d;
    }
};

struct Call final : glint::detail::PerCall {
    ScriptedPath* path;
    bool after_inside = false;
    explicit Call(ScriptedPath* p) : path(p) {}
    void timed() override {}
    glint::Outcome after() override {
        after_inside = after_inside || path->in_bracket;
        path->log += "A";
        return glint::ok();
    }
};

void nothing(void*, std::uint64_t) {}

std::size_t count_of(const std::string& log, char c) {
    return static_cast<std::size_t>(std::count(log.begin(), log.end(), c));
}

}  // namespace

TEST_CASE("pass_empties: one per 8 body brackets, at least 31") {
    CHECK(pass_empties(1) == 31);
    CHECK(pass_empties(248) == 31);
    CHECK(pass_empties(256) == 32);
    CHECK(pass_empties(100'000) == 12'500);
}

TEST_CASE("run_pass: brackets of the batch, the last one short, empties around them") {
    ScriptedPath path;
    PassOutcome out = run_pass(path, batched(&nothing), PassPlan{25, 10});
    CHECK(out.totals.brackets == 3);
    CHECK(count_of(path.log, 'E') == 31);
    CHECK(path.log.find("B10") != std::string::npos);
    CHECK(path.log.find("B5") != std::string::npos);
    // Spread: some empties before the first body bracket and after the last.
    CHECK(path.log.front() == 'E');
    CHECK(path.log.back() == 'E');
    CHECK(out.cost.per_bracket[0] == 100);
    PerIteration v = per_iteration(out.totals, 25, out.cost);
    CHECK(v.values[0] == doctest::Approx(10.0));
}

TEST_CASE("run_pass: many brackets interleave an empty one every 8") {
    ScriptedPath path;
    run_pass(path, batched(&nothing), PassPlan{800, 1});
    CHECK(count_of(path.log, 'E') == 100);
    // No run of more than 8 body brackets without an empty one.
    std::size_t run = 0, longest = 0;
    for (std::size_t i = 0; i < path.log.size(); ++i) {
        if (path.log[i] == 'E') {
            run = 0;
        } else if (path.log[i] == 'B') {
            longest = std::max(longest, ++run);
        }
    }
    CHECK(longest <= 8);
}

TEST_CASE("run_pass: per-call workloads run after() between brackets, never inside") {
    ScriptedPath path;
    Call call(&path);
    Workload w;
    w.per_call = &call;
    PassOutcome out = run_pass(path, w, PassPlan{5, 99});
    CHECK(out.totals.brackets == 5);
    CHECK(count_of(path.log, 'A') == 5);
    CHECK_FALSE(call.after_inside);
    CHECK(path.log.find("B1A") != std::string::npos);
}

TEST_CASE("run_pass: a pass that cannot begin is not measured") {
    ScriptedPath path;
    path.fail_begin = true;
    PassOutcome out = run_pass(path, batched(&nothing), PassPlan{10, 10});
    CHECK_FALSE(out.totals.ok);
    CHECK(path.log.empty());
    CHECK(std::isnan(per_iteration(out.totals, 10, out.cost).values[0]));
}

namespace {
// A batch with inputs: prepare logs "P<n>" and notes whether a bracket was open.
struct Inputs {
    ScriptedPath* path;
    bool prepared_inside = false;
    static void prepare(void* ctx, std::uint64_t n) {
        auto* self = static_cast<Inputs*>(ctx);
        self->prepared_inside = self->prepared_inside || self->path->in_bracket;
        self->path->log += "P" + std::to_string(n);
    }
};
}  // namespace

TEST_CASE("run_pass: a batch with inputs has each bracket's inputs built before it, outside") {
    ScriptedPath path;
    Inputs inputs{&path};
    Workload w;
    w.batch = {&nothing, &inputs, &Inputs::prepare, 10};
    PassOutcome out = run_pass(path, w, PassPlan{25, 10});
    CHECK(out.totals.brackets == 3);
    CHECK_FALSE(inputs.prepared_inside);
    std::string bodies;  // the log without the empty brackets
    for (char c : path.log)
        if (c != 'E') bodies += c;
    CHECK(bodies == "P10B10P10B10P5B5");
}
