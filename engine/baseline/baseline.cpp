#include "engine/baseline/baseline.hpp"

#include <cmath>
#include <stdexcept>

#include "engine/stats/rank_test.hpp"
#include "os/files.hpp"

namespace glint::engine {

namespace {

constexpr const char* kChange = "base-change";
constexpr const char* kP = "base-p";

std::optional<double> number_at(const Json& row, std::string_view key) {
    const Json* v = row.find(key);
    if (v == nullptr || !v->is_number()) return std::nullopt;
    return v->as_number();
}

Labels labels_of(const Json& row) {
    Labels labels;
    const Json* l = row.find("labels");
    if (l == nullptr || !l->is_object()) return labels;
    for (const auto& [k, v] : l->as_object())
        labels.emplace_back(k, v.is_string() ? v.as_string() : v.dump(-1));
    return sorted_labels(std::move(labels));
}

}  // namespace

std::string row_key(const std::string& name, const Labels& sorted_labels) {
    std::string key = name;
    for (const auto& [k, v] : sorted_labels) key += '\x1f' + k + '=' + v;
    return key;
}

std::optional<Baseline> load_baseline(const std::string& path, std::string& error) {
    std::string text;
    if (auto problem = os::read_regular_file(path, kMaxBaselineBytes, text)) {
        error = problem->message + (problem->missing ? " (write one with --bench-json=FILE first)" : "");
        return std::nullopt;
    }
    return baseline_from_text(text, path, error);
}

std::optional<Baseline> baseline_from_text(const std::string& text, const std::string& path, std::string& error) {
    Json doc;
    try {
        doc = Json::parse(text);
    } catch (const std::exception& e) {
        error = "'" + path + "' is not JSON: " + e.what();
        return std::nullopt;
    }
    const Json* schema = doc.is_object() ? doc.find("schema") : nullptr;
    if (schema == nullptr || !schema->is_number() || schema->as_number() != 2) {
        error = "'" + path + "' is not a glint --bench-json document of schema 2";
        return std::nullopt;
    }
    const Json* rows = doc.find("rows");
    if (rows == nullptr || !rows->is_array()) {
        error = "'" + path + "' has no rows array";
        return std::nullopt;
    }
    Baseline baseline;
    baseline.path = path;
    if (const Json* meta = doc.find("meta")) baseline.meta = *meta;
    for (const Json& row : rows->as_array()) {
        const Json* name = row.find("name");
        const auto median = number_at(row, "medianNs");
        if (name == nullptr || !name->is_string() || !median || row.contains("error")) continue;
        // A per-call median below that run's clock bracket is a bound, not a number to compare.
        if (const Json* resolved = row.find("medianResolved"); resolved && *resolved == Json(false))
            continue;
        BaselineRow r;
        r.median_ns = *median;
        if (const Json* samples = row.find("samplesNs"); samples && samples->is_array())
            for (const Json& s : samples->as_array())
                if (s.is_number()) r.sample_ns.push_back(s.as_number());
        baseline.rows[row_key(name->as_string(), labels_of(row))] = std::move(r);
    }
    return baseline;
}

std::vector<catalog::MetricDescriptor> baseline_family() {
    catalog::MetricDescriptor change;
    change.name = kChange;
    change.header = "vs base";
    change.format = catalog::Format::percent;
    change.cls = catalog::MetricClass::quantitative;
    change.source = "baseline";
    change.available = true;
    change.is_default = true;
    catalog::MetricDescriptor p = change;
    p.name = kP;
    p.header = "p";
    p.format = catalog::Format::ratio;
    return {change, p};
}

std::vector<catalog::MetricCell> baseline_cells(const Baseline& baseline, const Row& row) {
    const auto family = baseline_family();
    double change = catalog::kNotMeasured, p = catalog::kNotMeasured;
    const auto found = baseline.rows.find(row_key(row.name, row.labels));
    if (found != baseline.rows.end() && row.timing && row.timing->median_resolved()) {
        const BaselineRow& base = found->second;
        if (base.median_ns > 0 && std::isfinite(row.timing->median_ns))
            change = 100.0 * (row.timing->median_ns / base.median_ns - 1.0);
        p = mann_whitney_p(row.timing->sample_ns, base.sample_ns);
    }
    return {catalog::make_cell(family[0], change), catalog::make_cell(family[1], p)};
}

std::string baseline_header(const Baseline& baseline) {
    std::string host = "unknown host";
    if (const Json* h = baseline.meta.find("host"); h && h->is_string()) host = h->as_string();
    return "baseline: " + baseline.path + " (" + std::to_string(baseline.rows.size()) +
           " rows, measured on " + host +
           "); vs base = median change in %, p = Mann-Whitney p-value of the per-sample times "
           "(below 0.01: a difference beyond sample noise)";
}

Json baseline_meta(const Baseline& baseline, const std::vector<Row>& rows) {
    Json m = Json::object();
    m["path"] = baseline.path;
    if (const Json* host = baseline.meta.find("host")) m["host"] = *host;
    std::size_t matched = 0;
    for (const auto& row : rows)
        if (baseline.rows.count(row_key(row.name, row.labels))) ++matched;
    m["rows"] = static_cast<unsigned long>(baseline.rows.size());
    m["matched"] = static_cast<unsigned long>(matched);
    return m;
}

}  // namespace glint::engine
