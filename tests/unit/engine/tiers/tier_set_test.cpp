// TierSet drives both kinds of tier alike: counting tiers' passes, then the run extensions'
// own passes, their lines, hand-backs, kept columns and a row's HTML view.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/tiers/tier_set.hpp"

using namespace glint::engine;

namespace {

Status available(const char* source) { return {source, Status::State::available, {}, {}}; }

struct Counter final : CountingTier {
    std::vector<std::string>* log;
    explicit Counter(std::vector<std::string>* l) : log(l) {}
    std::string_view source() const override { return "counter"; }
    bool wanted(const TierRequest&) const override { return true; }
    std::vector<Status> open(const TierRequest&) override { return {available("counter")}; }
    PassResult count(const Workload&, const PassPlan&) override {
        log->push_back("count");
        return {};
    }
};

// An extension with a pass of its own, lines, a hand-back, a kept column and an HTML view.
struct Extension final : Tier, RunExtension {
    std::vector<std::string>* log;
    explicit Extension(std::vector<std::string>* l) : log(l) {}
    RunExtension* extension() override { return this; }
    std::string_view source() const override { return "ext"; }
    bool wanted(const TierRequest&) const override { return true; }
    std::vector<Status> open(const TierRequest&) override { return {available("ext")}; }
    void begin_case(std::string_view name, std::string_view) override {
        log->push_back("begin " + std::string(name));
    }
    bool has_pass() const override { return true; }
    Json pass(const Workload&, const PassPlan&) override {
        log->push_back("pass");
        Json fields = Json::object();
        fields["ext"] = std::string("measured");
        return fields;
    }
    std::vector<std::string> after_table() override { return {"after"}; }
    std::vector<std::string> trailer() const override { return {"trailer"}; }
    Json hand_back() override { return Json(std::string("handed")); }
    void take_from_child(const Json& handed) override {
        log->push_back("took " + handed.as_string());
    }
    std::vector<std::string> kept_columns(const TierRequest&) const override { return {"kept"}; }
    std::string row_html(const Row& row) const override { return "<p>" + row.name + "</p>"; }
};

TimingSummary timing() {
    TimingSummary t;
    t.iterations_per_sample = 100;
    t.median_ns = 10;
    return t;
}

}  // namespace

TEST_CASE(
    "tier set: an extension's pass follows the counting passes and adds row fields, not "
    "countIterations") {
    std::vector<std::string> log;
    TierSet set;
    std::vector<std::unique_ptr<Tier>> all;
    all.push_back(std::make_unique<Extension>(&log));  // listed first, its pass still runs last
    all.push_back(std::make_unique<Counter>(&log));
    set.open(TierRequest{}, std::move(all));
    int progress = 0;
    const CountedCase counted = set.count("a", "a", Workload{}, timing(), [&] { ++progress; });
    CHECK(log == std::vector<std::string>{"begin a", "count", "pass"});
    CHECK(progress == 2);
    CHECK(counted.count_iterations.has_value());
    CHECK(counted.row_fields.at("ext").as_string() == "measured");
}

TEST_CASE("tier set: a run with extensions only counts no iterations") {
    std::vector<std::string> log;
    TierSet set;
    std::vector<std::unique_ptr<Tier>> all;
    all.push_back(std::make_unique<Extension>(&log));
    set.open(TierRequest{}, std::move(all));
    const CountedCase counted = set.count("a", "a", Workload{}, timing(), {});
    CHECK_FALSE(counted.count_iterations.has_value());
    CHECK(counted.row_fields.contains("ext"));
}

TEST_CASE("tier set: extensions give the lines, hand-backs, kept columns and a row's HTML view") {
    std::vector<std::string> log;
    TierSet set;
    std::vector<std::unique_ptr<Tier>> all;
    all.push_back(std::make_unique<Counter>(&log));
    all.push_back(std::make_unique<Extension>(&log));
    TierRequest request;
    request.metrics = {"median"};
    set.open(request, std::move(all));
    CHECK(set.selection() == std::vector<std::string>{"median", "kept"});
    CHECK(set.after_table() == std::vector<std::string>{"after"});
    CHECK(set.trailer() == std::vector<std::string>{"trailer"});
    const Json handed = set.hand_back();
    CHECK(handed.at("ext").as_string() == "handed");
    CHECK_FALSE(handed.contains("counter"));
    set.take_from_child(handed);
    CHECK(log == std::vector<std::string>{"took handed"});
    Row row;
    row.name = "sum";
    CHECK(set.row_html(row) == "<p>sum</p>");
}

// An instruction-level row's counts: pairs of passes over the longer and the shorter function,
// each cell the median of the pairs' differences per span, so one disturbed pass cannot move
// it; a ratio cell is not a difference (—).
TEST_CASE("tier set: count_difference keeps the median of its pairs' differences, and no ratio") {
    struct Differenced final : CountingTier {
        int passes = 0;
        std::string_view source() const override { return "diff"; }
        bool wanted(const TierRequest&) const override { return true; }
        std::vector<Status> open(const TierRequest&) override { return {available("diff")}; }
        PassResult count(const Workload& work, const PassPlan&) override {
            const bool longer = work.batch.run == &Differenced::longer_fn;
            const double disturbed = ++passes == 1 ? 1000 : 0;  // an interrupt in the first pass
            glint::catalog::MetricCell count, ratio;
            count.name = "instr";
            count.value = (longer ? 10 : 4) + disturbed;
            ratio.name = "ipc";
            ratio.format = glint::catalog::Format::ratio;
            ratio.value = 2;
            return {{count, ratio}, Json::object()};
        }
        static void longer_fn(void*, std::uint64_t) {}
        static void shorter_fn(void*, std::uint64_t) {}
    };
    TierSet set;
    std::vector<std::unique_ptr<Tier>> all;
    auto tier = std::make_unique<Differenced>();
    Differenced* counted_by = tier.get();
    all.push_back(std::move(tier));
    set.open(TierRequest{}, std::move(all));
    Workload work;
    work.batch.run = &Differenced::longer_fn;
    work.batch.reference = &Differenced::shorter_fn;
    work.batch.span = 2;
    const CountedCase c = set.count_difference(work, timing(), {});
    CHECK(counted_by->passes == 2 * kDifferencePairs);
    REQUIRE(c.cells.size() == 2);
    CHECK(c.cells[0].value == 3);  // (10 - 4) / 2, the disturbed pair's 503 left out
    CHECK(std::isnan(c.cells[1].value));
    CHECK(
        c.row_fields.at("counters").as_string().find("per instruction by the difference method") ==
        0);
}

TEST_CASE(
    "tier set: the tiers' pre-existing threads make one threadCoverage, a thread one tier missed "
    "missed") {
    // Under --perf-inherit each tier reports the threads alive at its open
    // (preexisting_threads.hpp).
    struct Reporting final : CountingTier {
        const char* name;
        bool misses;
        Reporting(const char* n, bool m) : name(n), misses(m) {}
        std::string_view source() const override { return name; }
        bool wanted(const TierRequest&) const override { return true; }
        std::vector<Status> open(const TierRequest&) override { return {available(name)}; }
        PassResult count(const Workload&, const PassPlan&) override {
            Json pool = Json::object();
            pool["tid"] = 4711l;
            pool["name"] = std::string("pool");
            Json part = Json::object();
            part["preExisting"] = Json::array();
            part["preExistingMissed"] = Json::array();
            if (misses) {
                pool["why"] = std::string("it exited before its counters could open");
                pool["tiers"] = Json::array();
                pool["tiers"].push_back(std::string(name));
            }
            part[misses ? "preExistingMissed" : "preExisting"].push_back(pool);
            PassResult r;
            r.row_fields["threadCoverage"] = part;
            return r;
        }
    };
    TierRequest request;
    request.perf.inherit = true;
    for (const bool raw_first : {false, true}) {
        CAPTURE(raw_first);
        std::vector<std::unique_ptr<Tier>> all;
        all.push_back(std::make_unique<Reporting>(raw_first ? "raw" : "perf", raw_first));
        all.push_back(std::make_unique<Reporting>(raw_first ? "perf" : "raw", !raw_first));
        TierSet set;
        set.open(request, std::move(all));
        const CountedCase c = set.count("c", "c", Workload{}, timing(), {});
        const Json* coverage = c.row_fields.find("threadCoverage");
        REQUIRE(coverage);
        CHECK(coverage->at("preExisting").as_array().empty());
        REQUIRE(coverage->at("preExistingMissed").as_array().size() == 1);
        CHECK(
            coverage->at("preExistingMissed").as_array()[0].at("tiers").as_array()[0].as_string() ==
            "raw");
        CHECK(coverage->at("threads").as_number() == 2);
        CHECK(coverage->at("counted").as_number() == 1);
    }
}
