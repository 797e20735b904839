// Piped output: the group's rows are collected and printed once, at end_group, sorted and
// with tight widths. No escape codes, unless painted (--color=always).
#include <algorithm>

#include "engine/report/render.hpp"
#include "engine/report/sort.hpp"
#include "engine/report/table_reporters.hpp"

namespace glint::engine::report {

void CollectingTable::begin_group(const GroupInfo& group) {
    head_ = head_of(group);
    progress_only_ = group.progress_only;
    rows_.clear();
}

void CollectingTable::end_group() {
    if (!rows_.empty() && !progress_only_) {
        TableHead head = head_;
        // A column only where some row has a cell (even "—"), or where it says the metric
        // asked for is unavailable (its — is the answer).
        if (!keeps_every_column())
            std::erase_if(head.metrics, [&](const catalog::MetricDescriptor& m) {
                return m.available && std::none_of(rows_.begin(), rows_.end(), [&](const Row& r) {
                           return r.cell(m.name) != nullptr;
                       });
            });
        start_block();
        write(render(head, sorted_rows(std::move(rows_), sort_)));
        flush();
    }
    rows_.clear();
}

namespace {

class PipedTable final : public CollectingTable {
  public:
    PipedTable(std::FILE* out, SortSpec sort, bool color)
        : CollectingTable(out, std::move(sort)), color_(color) {}

  private:
    std::string render(const TableHead& head, const std::vector<Row>& rows) const override {
        return render_table(tight_table(head, rows), color_);
    }

    bool color_;
};

}  // namespace

std::unique_ptr<TableReporter> make_piped_table(std::FILE* out, SortSpec sort, bool color) {
    return std::make_unique<PipedTable>(out, std::move(sort), color);
}

}  // namespace glint::engine::report
