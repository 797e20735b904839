#include "engine/baseline/baseline.hpp"

#include <cmath>

#include "engine/compare/document.hpp"

namespace glint::engine {

namespace {

constexpr const char* kChange = "base-change";

std::string key_of(const Baseline& b, const std::string& registration, const std::string& name,
                   const Labels& labels) {
    return identity_key(b.document.has_registrations ? registration : std::string(), name, labels);
}

Baseline baseline_of(RunDocument doc, CompareReportOptions options) {
    Baseline b;
    b.document = std::move(doc);
    b.options = options;
    b.index.reserve(b.document.rows.size());
    for (std::size_t i = 0; i < b.document.rows.size(); ++i) {
        const DocumentRow& r = b.document.rows[i];
        b.index.emplace(key_of(b, r.registration, r.name, r.labels), i);
    }
    return b;
}

}  // namespace

const DocumentRow* Baseline::find(const Row& row) const {
    const auto it =
        index.find(key_of(*this, row.registration, row.name, sorted_labels(row.labels)));
    return it == index.end() ? nullptr : &document.rows[it->second];
}

std::optional<Baseline> load_baseline(const std::string& path, CompareReportOptions options,
                                      std::string& error) {
    auto doc = read_side(path, error);
    if (!doc) return std::nullopt;
    return baseline_of(std::move(*doc), options);
}

std::optional<Baseline> baseline_from_text(const std::string& text, const std::string& path,
                                           CompareReportOptions options, std::string& error) {
    auto doc = parse_document(text, path, error);
    if (!doc) return std::nullopt;
    return baseline_of(std::move(*doc), options);
}

std::vector<catalog::MetricDescriptor> baseline_family() {
    catalog::MetricDescriptor change;
    change.name = kChange;
    change.header = "vs base";
    change.format = catalog::Format::change;
    change.cls = catalog::MetricClass::quantitative;
    change.source = "baseline";
    change.available = true;
    change.is_default = true;
    return {change};
}

std::vector<catalog::MetricCell> baseline_cells(const Baseline& baseline, const Row& row) {
    double change = catalog::kNotMeasured;
    const DocumentRow next = document_row(row);
    const RowChange c = compare_rows(baseline.find(row), &next, baseline.options.settings);
    if (c.change) change = 100.0 * (c.change->ratio - 1.0);
    catalog::MetricCell cell = catalog::make_cell(baseline_family()[0], change);
    // Coloured only where the verdict is confident: a change within the noise stays plain.
    if (c.change && c.change->verdict == Verdict::faster) cell.tone = catalog::Tone::better;
    if (c.change && c.change->verdict == Verdict::slower) cell.tone = catalog::Tone::worse;
    return {cell};
}

std::string baseline_header(const Baseline& baseline) {
    const std::string host =
        baseline.document.host.empty() ? "unknown host" : baseline.document.host;
    return "baseline: " + baseline.document.path + " (" +
           std::to_string(baseline.document.rows.size()) + " rows, measured on " + host +
           "); vs base = change in % (the verdict's estimate, signed); verdicts after the tables "
           "(repetition medians: "
           "--bench-repeat=N, 4 or more per side)";
}

BaselineComparison::BaselineComparison(const Baseline& baseline, const std::vector<Row>& rows)
    : baseline_(baseline), run_(document_of_rows(rows, "this run")) {
    run_.has_registrations = true;
    comparison_ = compare_documents({&baseline_.document, &run_}, baseline_.options.settings,
                                    baseline_.options.gate);
}

std::string BaselineComparison::text(CompareFormat format) const {
    return render_comparison(comparison_, baseline_.options, format);
}

Json BaselineComparison::meta() const {
    Json m = Json::object();
    m["path"] = baseline_.document.path;
    m["host"] = baseline_.document.host.empty() ? Json() : Json(baseline_.document.host);
    std::size_t matched = 0;
    for (const auto& row : comparison_.rows)
        if (row.base && row.changes.at(0).row) ++matched;
    m["rows"] = static_cast<unsigned long>(baseline_.document.rows.size());
    m["matched"] = static_cast<unsigned long>(matched);
    m["comparison"] = comparison_json(comparison_, baseline_.options);
    return m;
}

}  // namespace glint::engine
