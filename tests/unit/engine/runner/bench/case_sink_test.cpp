// The one sink cases measured elsewhere report through: an isolated child's run hands over what
// its tiers keep (lines after the table, the hand-back) into it, and the parent's run, a sink
// itself, prints those lines when its table ends and gives the hand-back to its tiers.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/runner/bench/bench_run.hpp"

using namespace glint::engine;

namespace {

struct Lines final : TableReporter {
    std::vector<std::string> lines;
    void header(const std::vector<std::string>& l) override {
        lines.insert(lines.end(), l.begin(), l.end());
    }
    void begin_group(const GroupInfo&) override {}
    void case_started(const std::string&) override {}
    void case_finished(const Row&) override {}
    void end_group() override {}
};

// An extension whose after-table line and hand-back name the run it is in.
struct Keeper final : Tier, RunExtension {
    std::string name;
    std::vector<std::string> taken;
    explicit Keeper(std::string n) : name(std::move(n)) {}
    RunExtension* extension() override { return this; }
    std::string_view source() const override { return "keeper"; }
    bool wanted(const TierRequest&) const override { return true; }
    std::vector<Status> open(const TierRequest&) override {
        return {{"keeper", Status::State::available, {}, {}}};
    }
    std::vector<std::string> after_table() override { return {"after " + name}; }
    Json hand_back() override { return Json(name); }
    void take_from_child(const Json& handed) override { taken.push_back(handed.as_string()); }
};

struct Recorder final : CaseSink {
    std::vector<std::string> after;
    std::vector<Json> handed;
    void case_started(const std::string&, const Labels&, const std::string&) override {}
    void row_finished(Row, const std::string&) override {}
    void case_failed(const FailedCase&, const std::string&) override {}
    void case_deferred(DeferredCase) override {}
    void after_table(std::string line) override { after.push_back(std::move(line)); }
    void handed_back(const Json& h) override { handed.push_back(h); }
};

Keeper* open_keeper(TierSet& set, const std::string& name) {
    std::vector<std::unique_ptr<Tier>> all;
    auto keeper = std::make_unique<Keeper>(name);
    Keeper* k = keeper.get();
    all.push_back(std::move(keeper));
    set.open(TierRequest{}, std::move(all));
    return k;
}

}  // namespace

TEST_CASE("case sink: a child's run hands over its tiers' after-table lines and hand-back") {
    TierSet tiers;
    open_keeper(tiers, "child");
    Lines table;
    const CaseRun cases;
    const Measuring measuring;
    BenchRun run(cases, measuring, table, tiers);
    Recorder sink;
    run.hand_over(sink);
    CHECK(sink.after == std::vector<std::string>{"after child"});
    REQUIRE(sink.handed.size() == 1);
    CHECK(sink.handed[0].at("keeper").as_string() == "child");
}

TEST_CASE("case sink: the parent's run gives a child's hand-back to its tiers") {
    TierSet tiers;
    Keeper* keeper = open_keeper(tiers, "parent");
    Lines table;
    const CaseRun cases;
    const Measuring measuring;
    BenchRun run(cases, measuring, table, tiers);
    CaseSink& sink = run;
    Json handed = Json::object();
    handed["keeper"] = std::string("child");
    sink.handed_back(handed);
    CHECK(keeper->taken == std::vector<std::string>{"child"});
}

namespace {

struct Columns final : RunObserver {
    std::vector<std::vector<std::string>> announced;
    void case_started(const std::string&, const Labels&) override {}
    void row_finished(const Row&) override {}
    void columns_known(const std::vector<glint::catalog::MetricDescriptor>& columns) override {
        std::vector<std::string> names;
        for (const auto& c : columns) names.push_back(c.name);
        announced.push_back(names);
    }
};

}  // namespace

TEST_CASE(
    "case sink: a child's iter metrics join the parent's catalog and JSON columns, once each") {
    TierSet tiers;
    Lines table;
    const CaseRun cases;
    const Measuring measuring;
    BenchRun run(cases, measuring, table, tiers);
    Columns observer;
    run.observe(&observer);
    CaseSink& sink = run;
    sink.client_metrics(
        {glint::Metric{"B", 4096}, glint::Metric{"words", 512, glint::Metric::level}});
    sink.client_metrics({glint::Metric{"B", 16}});  // known: nothing to announce
    REQUIRE(observer.announced.size() == 1);
    CHECK(observer.announced[0] == std::vector<std::string>{"B/s", "words"});
    REQUIRE(run.catalog().size() == 2);
    CHECK(run.catalog()[0].source == "client");
    CHECK(run.json_columns().size() == 2);
}
