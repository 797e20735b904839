// engine/report/reporter.hpp: what the runner tells the table reporter. The reporter knows
// rows, catalog descriptors and cells only; it never sees a tier.
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/model/row.hpp"

namespace glint::engine {

// How rows are ordered inside a table. Error rows sort last under every order.
struct SortSpec {
    std::string column;  // "" (measurement order), "name", "n", "median", "mad", "min", "max",
                         // or a catalog metric name
    bool descending = false;
};

struct GroupInfo {
    std::string title;  // rides in the top border ("dataset: canada · op: parse"); "" for none
    std::string first_column = "benchmark";
    std::vector<std::string> expected_names;  // row names known before measuring (pins widths)
    std::vector<catalog::MetricDescriptor> columns;  // visible metric columns, in order
    // Progress only: the group's rows show later, in other groups (--group-by holds the rows
    // measured inside the bodies for the grouped tables). Live: a status line while they are
    // measured; end_group prints no table.
    bool progress_only = false;
};

class TableReporter {
  public:
    virtual ~TableReporter() = default;
    virtual void header(const std::vector<std::string>& lines) = 0;  // the run header
    virtual void begin_group(const GroupInfo& group) = 0;
    virtual void case_started(const std::string& name) = 0;  // live: the spinner row
    virtual void case_progress() {}                          // live: advance the spinner
    virtual void case_finished(const Row& row) = 0;
    // The open group's metric columns grew (an iter declared a new client metric): `columns`
    // is the whole list. Later rows show them; a row has — in a column it has no cell for.
    virtual void columns_grew(const std::vector<catalog::MetricDescriptor>& /*columns*/) {}
    virtual void end_group() = 0;
    // A line for stderr about a case ("glint: <case>: <why>"). Piped: printed at once; live:
    // held while a group is on screen and printed after its final frame.
    virtual void diagnostic(const std::string& line);
};

// A TableReporter that hands each call on to `inner` through pass(): a decorator overrides
// pass (to drop the call, hold a lock, watch the stream) rather than every call. diagnostic is
// TableReporter's own unless the decorator overrides it.
class ForwardingTableReporter : public TableReporter {
  public:
    explicit ForwardingTableReporter(TableReporter& inner) : inner_(inner) {}
    void header(const std::vector<std::string>& lines) override;
    void begin_group(const GroupInfo& group) override;
    void case_started(const std::string& name) override;
    void case_progress() override;
    void case_finished(const Row& row) override;
    void columns_grew(const std::vector<catalog::MetricDescriptor>& columns) override;
    void end_group() override;

  protected:
    // Runs `call` (a call of inner()'s), or drops it.
    virtual void pass(const std::function<void()>& call) = 0;
    TableReporter& inner() { return inner_; }

  private:
    TableReporter& inner_;
};

// live: an interactive terminal (rows tick in, spinner row, no escape codes otherwise).
// color: the rows and header painted (engine/report/color.hpp), live or not.
std::unique_ptr<TableReporter> make_table_reporter(std::FILE* out, bool live, SortSpec sort,
                                                   bool color = false);

}  // namespace glint::engine
