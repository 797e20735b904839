// engine/report/table_reporters.hpp: the two TableReporter implementations behind
// make_table_reporter, and what they share. Internal to engine/report.
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/report/layout.hpp"
#include "engine/report/reporter.hpp"

namespace glint::engine::report {

// The table head a group asks for.
TableHead head_of(const GroupInfo& group);

// Output shared by both reporters: the run header, and one blank line between consecutive
// blocks of output (header, tables).
class TableOutput : public TableReporter {
  public:
    void header(const std::vector<std::string>& lines) override;

  protected:
    TableOutput(std::FILE* out, SortSpec sort) : out_(out), sort_(std::move(sort)) {}
    void write(std::string_view text);
    void write_line(std::string_view line);
    void flush();
    // The header's lines, each wrapped to the output's width (wrap_width) behind `indent`.
    void wrapped_header(const std::vector<std::string>& lines, std::string_view indent);
    void start_block();  // a blank line when anything was printed before
    bool sorted() const { return !sort_.column.empty(); }

    std::FILE* out_;
    SortSpec sort_;

  private:
    bool printed_any_ = false;
};

// Output printed per group, once, at end_group: the group's rows collected, sorted, and
// rendered by render() (the piped box table, markdown, CSV), with the metric columns some row
// has a cell for (all of them: keeps_every_column). No escape codes.
class CollectingTable : public TableOutput {
  public:
    void begin_group(const GroupInfo& group) override;
    void case_started(const std::string&) override {}
    void case_finished(const Row& row) override { rows_.push_back(row); }
    void columns_grew(const std::vector<catalog::MetricDescriptor>& columns) override {
        head_.metrics = columns;
    }
    void end_group() override;

  protected:
    CollectingTable(std::FILE* out, SortSpec sort) : TableOutput(out, std::move(sort)) {}
    virtual std::string render(const TableHead& head, const std::vector<Row>& rows) const = 0;
    // Whether a metric column no row of the table has a cell for is still rendered (CSV: one
    // header a run's tables share); otherwise it is left out.
    virtual bool keeps_every_column() const { return false; }

  private:
    TableHead head_;
    bool progress_only_ = false;  // GroupInfo::progress_only: nothing printed
    std::vector<Row> rows_;
};

// Piped output: each table printed once, at end_group, with tight widths; no escape codes
// unless `color` (--color=always).
std::unique_ptr<TableReporter> make_piped_table(std::FILE* out, SortSpec sort, bool color = false);

// An interactive terminal: rows tick in beneath a dim spinner row, with pinned widths.
// `columns` is the terminal's width; by default it is asked of `out` at each begin_group
// (unknown when `out` is not a terminal: then any width is assumed to fit). Diagnostics go to
// `err` (stderr by default); `clock` gives seconds for the time-left estimate (steady_clock by
// default; tests pass a fake). `color`: the rows and header painted (color.hpp).
std::unique_ptr<TableReporter> make_live_table(std::FILE* out, SortSpec sort,
                                               std::optional<std::size_t> columns = std::nullopt,
                                               std::FILE* err = nullptr,
                                               std::function<double()> clock = {},
                                               bool color = false);

}  // namespace glint::engine::report
