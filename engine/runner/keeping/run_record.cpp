#include "engine/runner/keeping/run_record.hpp"

#include <cstring>

#include "engine/model/sanitize.hpp"
#include "engine/report/json_report.hpp"
#include "engine/runner/case_filter.hpp"

namespace glint::engine {
namespace {

std::atomic<RunRecord*> g_active{nullptr};
// The case in flight, between cases.
const RunRecord::InFlight kNoCase{"\"duringCase\": null, \"duringCaseLabels\": null", "null"};

// Decimal digits of `n` into `out` (at least 21 bytes); async-signal-safe.
const char* decimal(std::size_t n, char* out) noexcept {
    char digits[24];
    int len = 0;
    do {
        digits[len++] = static_cast<char>('0' + n % 10);
        n /= 10;
    } while (n != 0);
    for (int i = 0; i < len; ++i) out[i] = digits[len - 1 - i];
    out[len] = '\0';
    return out;
}

}  // namespace

RunRecord* active_record() noexcept { return g_active.load(std::memory_order_acquire); }
void set_active_record(RunRecord* record) noexcept {
    g_active.store(record, std::memory_order_release);
}

RunRecord::~RunRecord() {
    if (active_record() == this) set_active_record(nullptr);
}

void RunRecord::start(const os::OutputTarget* target, const Json& meta, std::string& note,
                      SampleDetail detail) {
    detail_ = detail;
    if (target) {
        target_name_ = target->given;
        emergency_ = os::prepare_emergency_output(*target);
    }
    std::string meta_text = meta.dump(-1);
    if (!meta_text.empty() && meta_text.back() == '}') meta_text.pop_back();
    prefix_ = "{\"schema\": " + std::to_string(kJsonSchema) + ", \"meta\": " + meta_text +
              (meta_text.size() > 1 ? ", " : "") + "\"interrupted\": {\"by\": \"";
    case_.store(&kNoCase);
    keep("[]", columns_);
    head_ = tail_ = nodes_.emplace_back(std::make_unique<Node>()).get();  // the sentinel
    if (target && target->mode == os::OutputMode::replace) {
        std::string problem;
        journal_ = os::JournalFile::create(*target, problem);
        if (journal_) {
            journal_path_ = journal_->path();
            Json first = Json::object();
            first["glintJournal"] = 1;
            first["target"] = target->given;
            first["meta"] = meta;
            if (!journal_->append(first.dump(-1)) || !journal_->sync()) {
                lose_journal(errno);
                note = *take_journal_problem();
            }
        } else {
            note = problem + "; the run goes on without a journal";
        }
    }
    started_ = true;
}

void RunRecord::lose_journal(int error) {
    journal_lost_.store(true, std::memory_order_release);
    journal_->remove();
    journal_problem_ = "cannot write the journal '" + sanitize::terminal(journal_path_) +
                       "': " + std::strerror(error) +
                       "; it is removed and the run goes on without one (its finished rows "
                       "reach --bench-json when the run ends)";
}

std::optional<std::string> RunRecord::take_journal_problem() {
    std::optional<std::string> problem = std::move(journal_problem_);
    journal_problem_.reset();
    return problem;
}

void RunRecord::keep(std::string text, std::atomic<const std::string*>& slot) {
    const std::string* kept =
        kept_.emplace_back(std::make_unique<std::string>(std::move(text))).get();
    slot.store(kept, std::memory_order_release);
}

void RunRecord::set_columns(const std::vector<catalog::MetricDescriptor>& columns) {
    if (!started_) return;
    Json list = Json::array();
    for (const auto& c : columns) list.push_back(column_json(c));
    std::string text = list.dump(-1);
    if (text == *columns_.load()) return;
    columns_list_ = columns;
    if (journal_) journal_->append("{\"columns\": " + text + "}");
    keep(std::move(text), columns_);
}

void RunRecord::case_started(const std::string& name, const Labels& labels) {
    if (!started_) return;
    const std::string quoted = Json(name).dump(-1), labels_text = labels_json(labels).dump(-1);
    std::string members = "\"duringCase\": " + quoted + ", \"duringCaseLabels\": " + labels_text;
    if (members == case_.load()->members) return;  // the same case, a later phase of it
    if (journal_) journal_->append("{\"case\": " + quoted + ", \"labels\": " + labels_text + "}");
    auto in_flight = std::make_unique<InFlight>(
        InFlight{std::move(members), quoted + sanitize::terminal(label_suffix(labels))});
    case_.store(kept_cases_.emplace_back(std::move(in_flight)).get(), std::memory_order_release);
}

void RunRecord::row_finished(const Row& row) {
    if (!started_) return;
    // Rows serialize against the columns last set; a cell beyond them still reaches metrics.
    Json json = row_json(row, columns_list_, detail_);
    auto node = std::make_unique<Node>();
    node->text = json.dump(-1);
    if (journal_ && !journal_lost_.load() &&
        (!journal_->append("{\"row\": " + node->text + "}") || !journal_->sync()))
        lose_journal(errno);
    tail_->next = node.get();
    tail_ = node.get();
    nodes_.push_back(std::move(node));
    row_count_.fetch_add(1, std::memory_order_release);
    case_.store(&kNoCase, std::memory_order_release);
}

const char* RunRecord::case_in_flight_members() const noexcept {
    const InFlight* c = case_.load(std::memory_order_acquire);
    return (c ? c : &kNoCase)->members.c_str();
}

const char* RunRecord::case_in_flight_shown() const noexcept {
    const InFlight* c = case_.load(std::memory_order_acquire);
    return (c ? c : &kNoCase)->shown.c_str();
}

bool RunRecord::write_abnormal_end(const char* by) noexcept {
    if (!started_ || ended_.exchange(true)) return false;
    const int fd = os::emergency_open(emergency_);
    if (fd < 0) return false;
    const std::size_t rows = finished_rows();
    char count[24];
    bool ok = true;
    auto put = [&](const char* text, std::size_t size) {
        ok = ok && os::emergency_put(fd, text, size);
    };
    auto put_c = [&](const char* text) { put(text, std::strlen(text)); };
    put(prefix_.data(), prefix_.size());
    put_c(by);
    put_c("\", ");
    put_c(case_in_flight_members());
    put_c(", \"finishedRows\": ");
    put_c(decimal(rows, count));
    put_c("}},\n\"columns\": ");
    const std::string* columns = columns_.load(std::memory_order_acquire);
    put(columns->data(), columns->size());
    put_c(",\n\"rows\": [");
    const Node* node = head_->next;
    for (std::size_t i = 0; i < rows && node; ++i, node = node->next) {
        put_c(i ? ",\n" : "\n");
        put(node->text.data(), node->text.size());
    }
    put_c("\n]}\n");
    const bool placed = os::emergency_commit(emergency_, fd, ok);
    // The document holds every row the journal does: the journal has served its purpose.
    if (placed && journal_) journal_->remove();
    return placed;
}

void RunRecord::finish() {
    ended_.store(true);
    final_written_.store(true);
    if (journal_) journal_->remove();
}

}  // namespace glint::engine
