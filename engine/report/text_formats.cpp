#include "engine/report/text_formats.hpp"

#include <algorithm>
#include <cmath>

#include "engine/model/json.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/model/unstable_codes.hpp"
#include "engine/report/layout.hpp"
#include "engine/report/table_reporters.hpp"
#include "engine/report/text.hpp"

namespace glint::engine {
namespace report {
namespace {

std::string csv_number(double v) { return std::isfinite(v) ? format_json_number(v) : ""; }

// A metric's CSV column: its name, and "_ns" for a time (plain nanoseconds, as median_ns).
std::string csv_column(const catalog::MetricDescriptor& m) {
    return m.format == catalog::Format::nanoseconds ? m.name + "_ns" : m.name;
}

// Every reason's code, space-separated ("cpu mig"): no quoting needed.
std::string csv_codes(const Row& row) {
    return row.stability && !row.error ? unstable_cell(row.stability->unstable, " ") : "";
}

class MarkdownTable final : public CollectingTable {
  public:
    MarkdownTable(std::FILE* out, SortSpec sort) : CollectingTable(out, std::move(sort)) {}
    void header(const std::vector<std::string>& lines) override {
        std::vector<std::string> escaped;
        for (const auto& line : lines) escaped.push_back(sanitize::markdown(line));
        TableOutput::header(escaped);
    }

  private:
    std::string render(const TableHead& head, const std::vector<Row>& rows) const override {
        std::string out;
        if (!head.title.empty()) out += "#### " + sanitize::markdown(head.title) + "\n\n";
        std::vector<FormattedRow> formatted;
        bool unstable = false;  // the unstable column, as the box table has it
        for (const auto& row : rows) {
            formatted.push_back(format_row(row, head));
            unstable = unstable || !formatted.back().reasons.empty();
        }
        const auto headers = numeric_headers(head);
        const std::size_t at =
            unstable ? std::min(kUnstablePosition, headers.size()) : headers.size() + 1;
        out += "| " + sanitize::markdown(head.first_column) + " |";
        std::string rule = "|:---|";
        for (std::size_t i = 0; i <= headers.size(); ++i) {
            if (i == at) {
                out += std::string(" ") + kUnstableHeader + " |";
                rule += ":---|";
            }
            if (i == headers.size()) break;
            out += " " + sanitize::markdown(headers[i]) + " |";
            rule += "---:|";
        }
        out += "\n" + rule + "\n";
        for (const auto& f : formatted) {
            out += "| " + sanitize::markdown(f.name) + " |";
            if (f.error) {
                out += " error: " + sanitize::markdown(*f.error) + " |";
                for (std::size_t i = 1; i < headers.size() + (unstable ? 1 : 0); ++i) out += " |";
            }
            for (std::size_t i = 0; i <= f.cells.size(); ++i) {
                if (i == at) out += " " + sanitize::markdown(f.reasons) + " |";
                if (i < f.cells.size()) out += " " + sanitize::markdown(f.cells[i]) + " |";
            }
            out += "\n";
        }
        return out;
    }
};

class CsvTable final : public CollectingTable {
  public:
    CsvTable(std::FILE* out, SortSpec sort) : CollectingTable(out, std::move(sort)) {}
    void header(const std::vector<std::string>& lines) override {
        std::vector<std::string> comments;
        for (const auto& line : lines) comments.push_back("# " + sanitize::terminal(line));
        wrapped_header(comments, "#   ");
    }

  private:
    std::string render(const TableHead& head, const std::vector<Row>& rows) const override {
        std::string out;
        if (!head.title.empty()) out += "# " + sanitize::terminal(head.title) + "\n";
        out += "benchmark,registration,samples,iterations,median_ns,mad_ns,min_ns,max_ns";
        for (const auto& m : head.metrics) out += "," + sanitize::csv(csv_column(m));
        out += ",error,unstable\n";
        for (const auto& row : rows) {
            out +=
                sanitize::csv(format_row(row, head).name) + "," + sanitize::csv(row.registration);
            const bool timed = row.timing && !row.error;
            const TimingSummary t = timed ? *row.timing : TimingSummary{};
            const double nan = std::nan("");
            out += "," + (timed ? std::to_string(t.samples) : "") + "," +
                   (timed ? std::to_string(t.iterations_per_sample) : "");
            for (double v : {t.median_ns, t.mad_ns, t.min_ns, t.max_ns})
                out += "," + csv_number(timed ? v : nan);
            for (const auto& m : head.metrics) {
                const catalog::MetricCell* cell = row.cell(m.name);
                out += "," + csv_number(cell && !row.error ? cell->value : nan);
            }
            out += "," + sanitize::csv(row.error.value_or("")) + "," +
                   sanitize::csv(csv_codes(row)) + "\n";
        }
        return out;
    }
};

}  // namespace
}  // namespace report

std::unique_ptr<TableReporter> make_text_format_reporter(std::FILE* out, const std::string& format,
                                                         SortSpec sort) {
    if (format == "csv") return std::make_unique<report::CsvTable>(out, std::move(sort));
    return std::make_unique<report::MarkdownTable>(out, std::move(sort));
}

}  // namespace glint::engine
