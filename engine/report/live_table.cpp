// The live table, for an interactive terminal.
//
// Unsorted: the table's head prints when its first case starts; each finished case adds its
// row; beneath the rows sit a dim spinner row for the case in flight and the bottom border —
// the "tail", the only lines ever repainted (cursor up + erase line). The column widths are
// pinned at begin_group, so every frame has the same width and the frame left when the group
// ends (rows + bottom border) is the last live frame. A row that does not fit the pinned
// widths closes the segment (bottom border) and opens a new, wider one below it: history is
// never repainted.
//
// Deferred: with a sort order (--sort-by) rows cannot appear in final order, and a table wider
// than the terminal would wrap (breaking cursor-up repaints); then only a dim status line
// shows ("⠹ name  measuring…  k/N done", cut to the terminal), and end_group erases it and
// prints the rows not yet shown as one table, sorted, with tight widths. A streaming group
// whose rows outgrow the terminal turns deferred from that row on.
//
// The spinner row (and the status line) show "measuring… case k/N · ~Ts left": k counts the
// group's rows, N its expected names (at least k); T is the cases left after this one times the
// mean duration of the run's finished cases, plus what this case has left of that mean (no
// estimate before a case has finished).
//
// Diagnostics (the runner's "glint: <case>: <why>" lines, on stderr) would land under the tail
// and throw the cursor-up repaints off by their lines: while a group is on screen they wait and
// print after its final frame.
//
// Nothing is painted except from these calls, and the runner makes them only between
// measurements, so no repaint work runs while a case is timed.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "engine/report/render.hpp"
#include "engine/report/sort.hpp"
#include "engine/report/table_reporters.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/report/text.hpp"
#include "os/terminal.hpp"

namespace glint::engine::report {

namespace {

constexpr std::string_view kDim = "\x1b[2m";
constexpr std::string_view kNormal = "\x1b[0m";
constexpr std::string_view kUpAndErase = "\x1b[1A\x1b[2K";

double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
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
              std::function<double()> clock)
        : TableOutput(out, std::move(sort)), fixed_columns_(columns), err_(err),
          clock_(clock ? std::move(clock) : steady_seconds) {}

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
        layout_ = pinned_layout(head_, group.expected_names);
        columns_ = fixed_columns_ ? fixed_columns_ : os::terminal_columns(out_);
        rows_.clear();
        shown_ = 0;
        deferred_ = sorted() || too_wide(layout_);
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
        if (too_wide(needed)) {  // from here on, the rows wait for end_group
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
            write_line(render_bottom_border(layout_));
            layout_ = needed;
            write_head();
        }
        write_line(render_row(text, layout_));
        ++shown_;
        paint_tail();
        flush();
    }

    void end_group() override {
        in_flight_.reset();
        erase_tail();
        if (segment_open_) write_line(render_bottom_border(layout_));
        if (shown_ < rows_.size()) {
            std::vector<Row> waiting(rows_.begin() + static_cast<std::ptrdiff_t>(shown_), rows_.end());
            start_block();
            write(render_table(tight_table(head_, sorted_rows(std::move(waiting), sort_))));
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

    void write_head() {
        write_line(render_top_border(head_, layout_));
        write_line(render_header(head_, layout_));
        write_line(render_separator(layout_));
    }

    void erase_tail() {
        for (; tail_lines_ > 0; --tail_lines_) write(kUpAndErase);
    }

    void paint_tail() {
        if (in_flight_) {
            write_dim(render_spinner_row(kSpinnerGlyphs[spin_], *in_flight_, progress_text(), layout_));
            ++tail_lines_;
        }
        write_line(render_bottom_border(layout_));
        ++tail_lines_;
    }

    void paint_status() {
        erase_tail();
        std::string status =
            std::string(kSpinnerGlyphs[spin_]) + " " + sanitize::terminal(*in_flight_) + "  " + progress_text();
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
    Layout layout_;
    std::vector<Row> rows_;  // every finished row of the group
    std::size_t shown_ = 0;  // rows_[0, shown_) are on screen in table segments
    bool deferred_ = false;  // the remaining rows print at end_group
    bool segment_open_ = false;
    std::size_t tail_lines_ = 0;  // lines at the bottom that the next paint replaces
    std::optional<std::string> in_flight_;
    std::size_t spin_ = 0;

    std::FILE* err_;                    // where diagnostics go
    std::function<double()> clock_;     // seconds (tests: a fake)
    bool group_open_ = false;           // between begin_group and end_group
    std::vector<std::string> waiting_;  // diagnostics held until end_group
    double started_at_ = 0;             // the case in flight's start
    double finished_seconds_ = 0;       // run-wide: time of the finished cases...
    std::size_t finished_cases_ = 0;    // ...and how many
};

}  // namespace

std::unique_ptr<TableReporter> make_live_table(std::FILE* out, SortSpec sort,
                                               std::optional<std::size_t> columns, std::FILE* err,
                                               std::function<double()> clock) {
    return std::make_unique<LiveTable>(out, std::move(sort), columns, err ? err : stderr,
                                       std::move(clock));
}

}  // namespace glint::engine::report
