#include "engine/report/text_formats.hpp"

#include <cmath>

#include "engine/model/json.hpp"
#include "engine/report/layout.hpp"
#include "engine/report/table_reporters.hpp"
#include "engine/report/text.hpp"

namespace glint::engine {
namespace report {
namespace {

std::string md_cell(const std::string& text) {
    std::string out;
    for (char c : single_line(text)) {
        if (c == '|') out += "\\|";
        else out += c;
    }
    return out;
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string csv_number(double v) { return std::isfinite(v) ? format_json_number(v) : ""; }

class MarkdownTable final : public CollectingTable {
public:
    MarkdownTable(std::FILE* out, SortSpec sort) : CollectingTable(out, std::move(sort)) {}

private:
    std::string render(const TableHead& head, const std::vector<Row>& rows) const override {
        std::string out;
        if (!head.title.empty()) out += "#### " + md_cell(head.title) + "\n\n";
        const auto headers = numeric_headers(head);
        out += "| " + md_cell(head.first_column) + " |";
        std::string rule = "|:---|";
        for (const auto& h : headers) {
            out += " " + md_cell(h) + " |";
            rule += "---:|";
        }
        out += "\n" + rule + "\n";
        for (const auto& row : rows) {
            const FormattedRow f = format_row(row, head);
            out += "| " + md_cell(f.name) + " |";
            if (f.error) {
                out += " error: " + md_cell(*f.error) + " |";
                for (std::size_t i = 1; i < headers.size(); ++i) out += " |";
            }
            for (const auto& cell : f.cells) out += " " + md_cell(cell) + " |";
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
        for (const auto& line : lines) comments.push_back("# " + single_line(line));
        TableOutput::header(comments);
    }

private:
    std::string render(const TableHead& head, const std::vector<Row>& rows) const override {
        std::string out;
        if (!head.title.empty()) out += "# " + single_line(head.title) + "\n";
        out += "benchmark,registration,samples,iterations,median_ns,mad_ns,min_ns,max_ns";
        for (const auto& m : head.metrics) out += "," + csv_field(m.name);
        out += ",error\n";
        for (const auto& row : rows) {
            out += csv_field(format_row(row, head).name) + "," + csv_field(row.registration);
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
            out += "," + csv_field(row.error.value_or("")) + "\n";
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
