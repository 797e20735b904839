#include "engine/report/text_formats.hpp"

#include <cmath>

#include "engine/model/json.hpp"
#include "engine/model/sanitize.hpp"
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
        const auto headers = numeric_headers(head);
        out += "| " + sanitize::markdown(head.first_column) + " |";
        std::string rule = "|:---|";
        for (const auto& h : headers) {
            out += " " + sanitize::markdown(h) + " |";
            rule += "---:|";
        }
        out += "\n" + rule + "\n";
        for (const auto& row : rows) {
            const FormattedRow f = format_row(row, head);
            out += "| " + sanitize::markdown(f.name) + " |";
            if (f.error) {
                out += " error: " + sanitize::markdown(*f.error) + " |";
                for (std::size_t i = 1; i < headers.size(); ++i) out += " |";
            }
            for (const auto& cell : f.cells) out += " " + sanitize::markdown(cell) + " |";
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
        out += ",error\n";
        for (const auto& row : rows) {
            out += sanitize::csv(format_row(row, head).name) + "," + sanitize::csv(row.registration);
            const bool timed = row.timing && !row.error;
            const TimingSummary t = timed ? *row.timing : TimingSummary{};
            const double nan = std::nan("");
            out += "," + (timed ? std::to_string(t.samples) : "") + "," +
                   (timed ? std::to_string(t.iterations_per_sample) : "");
            for (double v : {t.median_ns, t.mad_ns, t.min_ns, t.max_ns}) out += "," + csv_number(timed ? v : nan);
            for (const auto& m : head.metrics) {
                const catalog::MetricCell* cell = row.cell(m.name);
                out += "," + csv_number(cell && !row.error ? cell->value : nan);
            }
            out += "," + sanitize::csv(row.error.value_or("")) + "\n";
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
