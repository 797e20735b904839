#include "engine/report/text_formats.hpp"

#include <algorithm>
#include <cmath>

#include "engine/model/json.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/model/unstable_codes.hpp"
#include "engine/report/layout.hpp"
#include "engine/report/table_reporters.hpp"
#include "engine/report/text.hpp"
#include "engine/stats/summary.hpp"

namespace glint::engine {
namespace report {
namespace {

std::string csv_number(double v) { return std::isfinite(v) ? format_json_number(v) : ""; }

// A metric's CSV column: its name, and "_ns" for a time (plain nanoseconds, as median_ns).
std::string csv_column(const catalog::MetricDescriptor& m) {
    return m.format == catalog::Format::nanoseconds ? m.name + "_ns" : m.name;
}

// The parameters' keys of a table's rows, in the order they first appear: one column each.
std::vector<std::string> parameter_keys(const std::vector<Row>& rows) {
    std::vector<std::string> keys;
    for (const auto& row : rows)
        for (const auto& [key, value] : row.labels)
            if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    return keys;
}

// A parameter's column: its key, "param:key" where the key is one of the fixed columns' names.
std::string parameter_column(const std::string& key, const TableHead& head) {
    static const std::vector<std::string> fixed = {
        "benchmark", "registration", "samples",   "iterations", "median_ns", "mad_ns",  "min_ns",
        "max_ns",    "mean_ns",      "stddev_ns", "cv",         "error",     "unstable"};
    bool taken = std::find(fixed.begin(), fixed.end(), key) != fixed.end();
    for (const auto& m : head.metrics) taken = taken || csv_column(m) == key;
    return taken ? "param:" + key : key;
}

// Every reason's code, space-separated ("cpu mig"): no quoting needed.
std::string csv_codes(const Row& row) {
    return row.stability && !row.error ? unstable_cell(row.stability->unstable, " ") : "";
}

class MarkdownTable final : public CollectingTable {
  public:
    MarkdownTable(std::FILE* out, SortSpec sort) : CollectingTable(out, std::move(sort)) {}
    // The header's lines verbatim in a fenced block (a fence longer than any run of backticks
    // in them), so a renderer neither joins them into one paragraph nor reads markup in them.
    void header(const std::vector<std::string>& lines) override {
        if (lines.empty()) return;
        std::vector<std::string> plain;
        std::size_t run = 0, longest = 0;
        for (const auto& line : lines) {
            plain.push_back(sanitize::terminal(line));
            for (char c : plain.back()) longest = std::max(longest, run = c == '`' ? run + 1 : 0);
        }
        const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
        start_block();
        write_line(fence + "text");
        for (const auto& line : plain) write_line(line);
        write_line(fence);
        flush();
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
    bool keeps_every_column() const override { return true; }
    void header(const std::vector<std::string>& lines) override {
        std::vector<std::string> comments;
        for (const auto& line : lines) comments.push_back("# " + sanitize::terminal(line));
        wrapped_header(comments, "#   ");
    }

  private:
    std::string render(const TableHead& head, const std::vector<Row>& rows) const override {
        std::string out;
        if (!head.title.empty()) out += "# " + sanitize::terminal(head.title) + "\n";
        const std::vector<std::string> keys = parameter_keys(rows);
        out += "benchmark,registration";
        for (const auto& key : keys) out += "," + sanitize::csv(parameter_column(key, head));
        out += ",samples,iterations,median_ns,mad_ns,min_ns,max_ns,mean_ns,stddev_ns,cv";
        for (const auto& m : head.metrics) out += "," + sanitize::csv(csv_column(m));
        out += ",error,unstable\n";
        for (const auto& row : rows) {
            out +=
                sanitize::csv(format_row(row, head).name) + "," + sanitize::csv(row.registration);
            for (const auto& key : keys) {
                const auto it = std::find_if(row.labels.begin(), row.labels.end(),
                                             [&](const auto& label) { return label.first == key; });
                out += "," + (it != row.labels.end() ? sanitize::csv(it->second) : "");
            }
            const bool timed = row.timing && !row.error;
            const TimingSummary t = timed ? *row.timing : TimingSummary{};
            const double nan = std::nan("");
            const Moments mo = moments(t.sample_ns);
            out += "," + (timed ? std::to_string(t.samples) : "") + "," +
                   (timed ? std::to_string(t.iterations_per_sample) : "");
            for (double v : {t.median_ns, t.mad_ns, t.min_ns, t.max_ns, mo.mean, mo.stddev, mo.cv})
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
