// engine/runner/bench/case_sink.hpp: where the results of cases measured in another process go.
// An isolated child's run reports into a sink that writes wire lines (runner/isolation/wire.hpp);
// the parent reads them back into its own BenchRun, which is a sink too.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <glint/bench.hpp>

#include "engine/model/json.hpp"
#include "engine/model/row.hpp"
#include "engine/registry/registry.hpp"

namespace glint::engine {

// A bench_case deferred to phase 2.
struct DeferredCase {
    std::string registration;
    glint::CaseInfo info;                          // its labels include the parameters'
    std::unique_ptr<glint::detail::PerCall> body;  // null when the case runs elsewhere
    std::size_t index = 0;                 // its place among its body run's bench_case calls
    std::size_t instance = 0;              // its body run's parameter combination, in instances(r)
    const Registration* source = nullptr;  // null when it came from a child process
};

// A case that could not report itself (its child died): the run makes its error row.
struct FailedCase {
    std::string registration;
    std::string name;
    Labels labels;  // sorted
    const std::vector<glint::Metric>* metrics = nullptr;
    std::string display;  // the table's name cell
};

class CaseSink {
  public:
    virtual ~CaseSink() = default;
    // A case starts: its row name, its labels (sorted), and the table's name for it.
    virtual void case_started(const std::string& name, const Labels& labels,
                              const std::string& display) = 0;
    // A finished row (measured, or an error row), shown as `display`.
    virtual void row_finished(Row row, const std::string& display) = 0;
    virtual void case_failed(const FailedCase& c, const std::string& message) = 0;
    // A bench_case a body registered (its code stays where it ran: body null).
    virtual void case_deferred(DeferredCase d) = 0;
    // The client metrics of an iter row about to be reported (RunObserver::client_metrics).
    virtual void client_metrics(const std::vector<glint::Metric>&) {}
    // A line the tiers print under the table that holds the cases (RunExtension::after_table).
    virtual void after_table(std::string line) = 0;
    // What the tiers hand back for the run's end (TierSet::hand_back).
    virtual void handed_back(const Json& handed) = 0;
};

}  // namespace glint::engine
