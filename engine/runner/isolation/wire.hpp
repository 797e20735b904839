// engine/runner/isolation/wire.hpp: the lines an isolated child writes to its parent
// (engine/runner/isolation/isolated_run.hpp), each one JSON object:
//   {"case": NAME}          a case starts
//   {"row": ROW}            a row is finished (row_json's form, every cell it has)
//   {"deferred": CASE}      a bench_case the body registered: registration, index, instance,
//                           name, labels, metrics (METRICS), iterations
//   {"metrics": METRICS}    an iter row's client metrics, before its row (metrics_json's form)
//   {"provenance": LINE}    a provenance line the body registered
//   {"after": LINE}         a line the tiers print under the table (RunExtension::after_table)
//   {"tiers": HANDED}       what the tiers hand back (TierSet::hand_back)
//   {"end": true}           the child finished its work
#pragma once

#include <string>
#include <vector>

#include <glint/bench.hpp>

#include "engine/model/json.hpp"
#include "engine/model/row.hpp"
#include "engine/runner/bench/case_sink.hpp"
#include "engine/runner/bench/run_observer.hpp"

namespace glint::engine {

// glint::Metric lists as the lines spell them, [{unit, amount, mode, param (when set)}];
// metrics_from_json throws on a malformed entry.
Json metrics_json(const std::vector<glint::Metric>& metrics);
std::vector<glint::Metric> metrics_from_json(const Json& json);

// `instance`: the case's parameter combination, its place in instances(registration).
Json deferred_json(const std::string& registration, std::size_t index, const glint::CaseInfo& info,
                   std::size_t instance);
// The case without its code (body null, no setup or teardown). Throws on a malformed object.
DeferredCase deferred_from_json(const Json& json);

// The exit status of a child whose lines could not be written to the parent (the case closed
// the pipe): the parent names that instead of "exit(75) inside the case".
inline constexpr int kChildLostPipeExit = 75;

// The child's end of the pipe: the sink its run reports into (and the observer of its rows),
// writing each report as a line.
class ChildStream final : public RunObserver, public CaseSink {
  public:
    explicit ChildStream(int fd) : fd_(fd) {}
    void case_started(const std::string& name, const Labels& labels) override;
    void row_finished(const Row& row) override;
    void case_started(const std::string& name, const Labels& labels, const std::string&) override {
        case_started(name, labels);
    }
    void row_finished(Row row, const std::string&) override { row_finished(row); }
    void case_failed(const FailedCase& c, const std::string& message) override;
    void case_deferred(DeferredCase d) override;
    void client_metrics(const std::vector<glint::Metric>& metrics) override {
        send("metrics", metrics_json(metrics));
    }
    void after_table(std::string line) override { send("after", std::move(line)); }
    void handed_back(const Json& handed) override { send("tiers", handed); }
    void send(const char* key, Json value);

  private:
    int fd_;
};

}  // namespace glint::engine
