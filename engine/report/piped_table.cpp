// Piped output: the group's rows are collected and printed once, at end_group, sorted and
// with tight widths. No escape codes at all.
#include "engine/report/render.hpp"
#include "engine/report/sort.hpp"
#include "engine/report/table_reporters.hpp"

namespace glint::engine::report {

namespace {

class PipedTable final : public TableOutput {
public:
    PipedTable(std::FILE* out, SortSpec sort) : TableOutput(out, std::move(sort)) {}

    void begin_group(const GroupInfo& group) override {
        head_ = head_of(group);
        rows_.clear();
    }
    void case_started(const std::string&) override {}
    void case_finished(const Row& row) override { rows_.push_back(row); }
    void end_group() override {
        if (!rows_.empty()) {
            start_block();
            write(render_table(tight_table(head_, sorted_rows(std::move(rows_), sort_))));
            flush();
        }
        rows_.clear();
    }

private:
    TableHead head_;
    std::vector<Row> rows_;
};

}  // namespace

std::unique_ptr<TableReporter> make_piped_table(std::FILE* out, SortSpec sort) {
    return std::make_unique<PipedTable>(out, std::move(sort));
}

}  // namespace glint::engine::report
