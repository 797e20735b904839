#include "engine/report/reporter.hpp"

#include "engine/model/sanitize.hpp"
#include "engine/report/table_reporters.hpp"
#include "engine/report/text.hpp"

namespace glint::engine {

void TableReporter::diagnostic(const std::string& line) {
    std::fprintf(stderr, "%s\n", sanitize::terminal(line).c_str());
    std::fflush(stderr);
}

void ForwardingTableReporter::header(const std::vector<std::string>& lines) {
    pass([&] { inner_.header(lines); });
}
void ForwardingTableReporter::begin_group(const GroupInfo& group) {
    pass([&] { inner_.begin_group(group); });
}
void ForwardingTableReporter::case_started(const std::string& name) {
    pass([&] { inner_.case_started(name); });
}
void ForwardingTableReporter::case_progress() {
    pass([&] { inner_.case_progress(); });
}
void ForwardingTableReporter::case_finished(const Row& row) {
    pass([&] { inner_.case_finished(row); });
}
void ForwardingTableReporter::columns_grew(const std::vector<catalog::MetricDescriptor>& columns) {
    pass([&] { inner_.columns_grew(columns); });
}
void ForwardingTableReporter::end_group() {
    pass([&] { inner_.end_group(); });
}

std::unique_ptr<TableReporter> make_table_reporter(std::FILE* out, bool live, SortSpec sort,
                                                   bool color) {
    return live ? report::make_live_table(out, std::move(sort), std::nullopt, nullptr, {}, color)
                : report::make_piped_table(out, std::move(sort), color);
}

namespace report {

TableHead head_of(const GroupInfo& group) {
    return TableHead{group.title, group.first_column, group.columns};
}

void TableOutput::header(const std::vector<std::string>& lines) { wrapped_header(lines, "  "); }

void TableOutput::wrapped_header(const std::vector<std::string>& lines, std::string_view indent) {
    if (lines.empty()) return;
    start_block();
    const std::size_t width = wrap_width(out_);
    for (const auto& line : lines)
        for (const auto& part : wrap_to_width(sanitize::terminal(line), width, indent))
            write_line(part);
    flush();
}

void TableOutput::write(std::string_view text) { std::fwrite(text.data(), 1, text.size(), out_); }

void TableOutput::write_line(std::string_view line) {
    write(line);
    write("\n");
}

void TableOutput::flush() { std::fflush(out_); }

void TableOutput::start_block() {
    if (printed_any_) write("\n");
    printed_any_ = true;
}

}  // namespace report
}  // namespace glint::engine
