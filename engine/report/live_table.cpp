// The live table, for an interactive terminal. Unsorted, rows print as cases finish and only
// the tail (a spinner row and the bottom border) is ever repainted; a row too wide for the
// pinned widths opens a new segment (or, before any row, repaints the head: the unstable column
// of a first unstable row). With --sort-by, or a table wider than the terminal, only a
// status line shows and end_group prints the rows sorted. Diagnostics wait until the group's
// final frame. Nothing paints except from these calls, made only between measurements.
// Rationale and details: docs/rationale.md, "engine/report/live_table.cpp".
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "engine/model/sanitize.hpp"
#include "engine/report/render.hpp"
#include "engine/report/sort.hpp"
#include "engine/report/table_reporters.hpp"
#include "engine/report/text.hpp"
#include "os/terminal.hpp"

namespace glint::engine::report {

namespace {

constexpr std::string_view kDim = "\x1b[2m";
constexpr std::string_view kNormal = "\x1b[0m";
constexpr std::string_view kUpAndErase = "\x1b[1A\x1b[2K";

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// "~3s left", "~1m05s left", "<1s left".
std::string time_left(double seconds) {
    if (seconds < 1) return "<1s left";
    const long s = std::lround(seconds);
    if (s < 60) return "~" + std::to_string(s) + "s left";
    const long m = s / 60, r = s % 60;
    return "~" + std::to_string(m) + "m" + (r < 10 ? "0" : "") + std::to_string(r) + "s left";
}

class LiveTable final : public TableOutput {
  public:
    LiveTable(std::FILE* out, SortSpec sort, std::optional<std::size_t> columns, std::FILE* err,
              std::function<double()> clock, bool color)
        : TableOutput(out, std::move(sort)),
          fixed_columns_(columns),
          err_(err),
          clock_(clock ? std::move(clock) : steady_seconds),
          color_(color) {}

    void diagnostic(const std::string& line) override {
        if (group_open_) {
            waiting_.push_back(sanitize::terminal(line));
            return;
        }
        std::fprintf(err_, "%s\n", sanitize::terminal(line).c_str());
        std::fflush(err_);
    }

    void begin_group(const GroupInfo& group) override {
        group_open_ = true;
        head_ = head_of(group);
        expected_ = group.expected_names.size();
        expected_names_ = group.expected_names;
        layout_ = pinned_layout(head_, expected_names_);
        columns_ = fixed_columns_ ? fixed_columns_ : os::terminal_columns(out_);
        rows_.clear();
        shown_ = 0;
        progress_only_ = group.progress_only;
        deferred_ = progress_only_ || sorted() || too_wide(layout_);
        segment_open_ = false;
        tail_lines_ = 0;
        in_flight_.reset();
        spin_ = 0;
    }

    void case_started(const std::string& name) override {
        in_flight_ = name;
        spin_ = 0;
        started_at_ = clock_();
        if (deferred_) {
            paint_status();
        } else {
            if (!segment_open_) {
                Layout needed = layout_;
                needed.name = std::max(needed.name, display_width(sanitize::terminal(name)));
                if (!too_wide(needed)) layout_ = needed;
                open_segment();
            }
            erase_tail();
            paint_tail();
        }
        flush();
    }

    void case_progress() override {
        if (!in_flight_) return;
        spin_ = (spin_ + 1) % kSpinnerFrames;
        if (deferred_) {
            paint_status();
        } else {
            erase_tail();
            paint_tail();
        }
        flush();
    }

    void case_finished(const Row& row) override {
        rows_.push_back(row);
        if (in_flight_) {
            finished_seconds_ += std::max(0.0, clock_() - started_at_);
            ++finished_cases_;
        }
        in_flight_.reset();
        if (deferred_) {
            erase_tail();
            flush();
            return;
        }
        FormattedRow text = format_row(row, head_);
        Layout needed = widened(layout_, text, head_);  // == layout_ when the row fits
        if (too_wide(needed)) {                         // from here on, the rows wait for end_group
            deferred_ = true;
            erase_tail();
            if (segment_open_) write_line(render_bottom_border(layout_));
            segment_open_ = false;
            flush();
            return;
        }
        erase_tail();
        if (!segment_open_) {  // nothing printed yet: the first segment can still widen
            layout_ = needed;
            open_segment();
        } else if (!fits(layout_, text)) {
            // A head with no rows under it yet is repainted (the first unstable row adds its
            // column); otherwise the segment closes and a wider one opens.
            if (segment_rows_ == 0) {
                for (int line = 0; line < 3; ++line) write(kUpAndErase);
            } else {
                write_line(render_bottom_border(layout_));
            }
            layout_ = needed;
            write_head();
        }
        write_line(render_row(text, layout_, color_));
        ++shown_;
        ++segment_rows_;
        paint_tail();
        flush();
    }

    // New columns: the rows on screen keep their segment; the next rows print under a new head
    // (as a row too wide for the pinned widths does), or wait for end_group when too wide.
    void columns_grew(const std::vector<catalog::MetricDescriptor>& columns) override {
        head_.metrics = columns;
        Layout grown = pinned_layout(head_, expected_names_);
        grown.name = std::max(grown.name, layout_.name);
        const Layout before = layout_;
        layout_ = grown;
        if (deferred_) return;
        erase_tail();
        if (too_wide(grown)) {
            deferred_ = true;
            if (segment_open_) write_line(render_bottom_border(before));
            segment_open_ = false;
            if (in_flight_) paint_status();
        } else if (segment_open_) {
            write_line(render_bottom_border(before));
            write_head();
            paint_tail();
        }
        flush();
    }

    void end_group() override {
        in_flight_.reset();
        erase_tail();
        if (segment_open_) write_line(render_bottom_border(layout_));
        if (!progress_only_ && shown_ < rows_.size()) {
            std::vector<Row> waiting(rows_.begin() + static_cast<std::ptrdiff_t>(shown_),
                                     rows_.end());
            start_block();
            write(render_table(tight_table(head_, sorted_rows(std::move(waiting), sort_)), color_));
        }
        flush();
        rows_.clear();
        segment_open_ = false;
        group_open_ = false;
        for (const auto& line : waiting_) std::fprintf(err_, "%s\n", line.c_str());
        if (!waiting_.empty()) std::fflush(err_);
        waiting_.clear();
    }

  private:
    // Prints the head of the group's first segment.
    void open_segment() {
        if (segment_open_) return;
        start_block();
        write_head();
        segment_open_ = true;
    }

    // A segment's head: three lines (case_finished erases them while no row is under them).
    void write_head() {
        segment_rows_ = 0;
        write_line(render_top_border(head_, layout_));
        write_line(render_header(head_, layout_, color_));
        write_line(render_separator(layout_));
    }

    void erase_tail() {
        for (; tail_lines_ > 0; --tail_lines_) write(kUpAndErase);
    }

    void paint_tail() {
        if (in_flight_) {
            write_dim(
                render_spinner_row(kSpinnerGlyphs[spin_], *in_flight_, progress_text(), layout_));
            ++tail_lines_;
        }
        write_line(render_bottom_border(layout_));
        ++tail_lines_;
    }

    void paint_status() {
        erase_tail();
        std::string status = std::string(kSpinnerGlyphs[spin_]) + " " +
                             sanitize::terminal(*in_flight_) + "  " + progress_text();
        // One column short of the terminal: a full-width line may wrap on some terminals.
        if (columns_) status = truncate_to_width(status, *columns_ > 1 ? *columns_ - 1 : 1);
        write_dim(status);
        tail_lines_ = 1;
    }

    void write_dim(std::string_view line) {
        write(kDim);
        write(line);
        write(kNormal);
        write("\n");
    }

    // "measuring… case k/N · ~Ts left" (see the top of this file).
    std::string progress_text() const {
        const std::size_t k = rows_.size() + 1;
        const std::size_t n = std::max(expected_, k);
        std::string text = "measuring… case " + std::to_string(k) + "/" + std::to_string(n);
        if (finished_cases_ == 0) return text;
        const double mean = finished_seconds_ / static_cast<double>(finished_cases_);
        const double elapsed = std::max(0.0, clock_() - started_at_);
        const double left = static_cast<double>(n - k) * mean + std::max(0.0, mean - elapsed);
        return text + " · " + time_left(left);
    }

    bool too_wide(const Layout& layout) const {
        return columns_ && table_width(layout) > *columns_;
    }

    std::optional<std::size_t> fixed_columns_;  // for tests; otherwise asked of the terminal
    std::optional<std::size_t> columns_;        // the terminal width for this group, if known
    TableHead head_;
    std::size_t expected_ = 0;
    std::vector<std::string> expected_names_;
    Layout layout_;
    std::vector<Row> rows_;         // every finished row of the group
    std::size_t shown_ = 0;         // rows_[0, shown_) are on screen in table segments
    std::size_t segment_rows_ = 0;  // rows under the newest head
    bool deferred_ = false;         // the remaining rows print at end_group
    bool progress_only_ = false;    // GroupInfo::progress_only: end_group prints no rows
    bool segment_open_ = false;
    std::size_t tail_lines_ = 0;  // lines at the bottom that the next paint replaces
    std::optional<std::string> in_flight_;
    std::size_t spin_ = 0;

    std::FILE* err_;                    // where diagnostics go
    std::function<double()> clock_;     // seconds (tests: a fake)
    bool group_open_ = false;           // between begin_group and end_group
    std::vector<std::string> waiting_;  // diagnostics held until end_group
    bool color_ = false;                // paint the rows and header (color.hpp)
    double started_at_ = 0;             // the case in flight's start
    double finished_seconds_ = 0;       // run-wide: time of the finished cases...
    std::size_t finished_cases_ = 0;    // ...and how many
};

}  // namespace

std::unique_ptr<TableReporter> make_live_table(std::FILE* out, SortSpec sort,
                                               std::optional<std::size_t> columns, std::FILE* err,
                                               std::function<double()> clock, bool color) {
    return std::make_unique<LiveTable>(out, std::move(sort), columns, err ? err : stderr,
                                       std::move(clock), color);
}

}  // namespace glint::engine::report
