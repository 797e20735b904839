#include "engine/report/json_report.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "engine/model/json_values.hpp"
#include "engine/report/stability_json.hpp"
#include "engine/stats/shift.hpp"
#include "engine/stats/summary.hpp"

namespace glint::engine {

Json labels_json(const Labels& labels) {
    Labels sorted = labels;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    Json out = Json::object();
    for (const auto& [key, value] : sorted) out[key] = value;
    return out;
}

namespace {

void add_timing(Json& out, const std::optional<TimingSummary>& timing, SampleDetail detail) {
    if (!timing) {
        for (const char* key :
             {"samples", "iterationsPerSample", "perCall", "medianNs", "madNs", "estimator",
              "spreadNs", "cleanSamples", "disturbedSamples", "slowCoreSamples", "coreStepNs",
              "minNs", "maxNs", "meanNs", "stddevNs", "cv", "samplesNs", "repetitionMediansNs"})
            out[key] = Json();
        return;
    }
    out["samples"] = timing->samples;
    out["iterationsPerSample"] = timing->iterations_per_sample;
    out["perCall"] = timing->per_call;
    out["medianNs"] = number_or_null(timing->median_ns);
    out["madNs"] = number_or_null(timing->mad_ns);
    // The headline's estimator and the ± printed (docs/load.md); counts null when not measured.
    out["estimator"] = timing->estimator;
    out["spreadNs"] = number_or_null(timing->printed_spread_ns());
    out["cleanSamples"] = timing->clean_samples ? Json(*timing->clean_samples) : Json();
    out["disturbedSamples"] = timing->disturbed_samples ? Json(*timing->disturbed_samples) : Json();
    out["slowCoreSamples"] = timing->slow_core_samples ? Json(*timing->slow_core_samples) : Json();
    out["coreStepNs"] = number_or_null(timing->core_step_ns);
    out["split"] = timing->split;
    out["retaken"] = timing->retaken;
    out["minNs"] = number_or_null(timing->min_ns);
    out["maxNs"] = number_or_null(timing->max_ns);
    if (timing->per_call) {  // the clock bracket subtracted from each sample, and whether the
        out["resolutionNs"] = timing->resolution_ns;  // median call outlasted it
        out["medianResolved"] = timing->median_resolved();
    }
    // The moments of every sample (engine/stats/summary.hpp), for readers used to them; the
    // headline stays medianNs.
    const Moments moments_of = moments(timing->sample_ns);
    out["meanNs"] = number_or_null(moments_of.mean);
    out["stddevNs"] = number_or_null(moments_of.stddev);
    out["cv"] = number_or_null(moments_of.cv);
    Json samples = Json::array();
    const bool all_finite = std::all_of(timing->sample_ns.begin(), timing->sample_ns.end(),
                                        [](double s) { return std::isfinite(s); });
    const bool thin = detail == SampleDetail::thinned && all_finite &&
                      timing->sample_ns.size() > kDocumentSamples;
    for (double s :
         thin ? thin_to_quantiles(timing->sample_ns, kDocumentSamples) : timing->sample_ns)
        samples.push_back(number_or_null(s));
    out["samplesNs"] = std::move(samples);
    if (thin) out["samplesNsThinned"] = true;
    Json medians = Json::array();  // one per --bench-repeat repetition
    for (double m : timing->repetition_median_ns) medians.push_back(number_or_null(m));
    if (timing->repetition_median_ns.empty()) medians.push_back(number_or_null(timing->median_ns));
    out["repetitionMediansNs"] = std::move(medians);
}

Json metrics_json(const Row& row, const std::vector<catalog::MetricDescriptor>& columns) {
    Json out = Json::object();
    for (const auto& column : columns) {
        const catalog::MetricCell* cell = row.cell(column.name);
        out[column.name] = cell ? number_or_null(cell->value) : Json();
    }
    for (const auto& cell : row.cells)
        if (!out.contains(cell.name)) out[cell.name] = number_or_null(cell.value);
    return out;
}

}  // namespace

Json column_json(const catalog::MetricDescriptor& column) {
    Json out = Json::object();
    out["name"] = column.name;
    out["header"] = column.header;
    out["format"] = catalog::to_string(column.format);
    out["class"] = catalog::to_string(column.cls);
    out["source"] = column.source;
    out["available"] = column.available;
    out["default"] = column.is_default;
    if (!column.available) out["reason"] = column.reason;
    return out;
}

Json row_json(const Row& row, const std::vector<catalog::MetricDescriptor>& columns,
              SampleDetail detail) {
    Json out = Json::object();
    out["name"] = row.name;
    out["registration"] = row.registration;
    out["labels"] = labels_json(row.labels);
    out["displayName"] = display_name(row.registration, row.name, row.labels);
    add_timing(out, row.is_error() ? std::nullopt : row.timing, detail);
    add_stability_json(out, row);
    if (out.contains("samplesNsThinned") && out.contains("samplesCpuNs")) {  // thinned alike
        const std::vector<double>& cpu = row.timing->sample_cpu_ns;
        Json thinned = Json::array();
        if (std::all_of(cpu.begin(), cpu.end(), [](double c) { return std::isfinite(c); }))
            for (double c : thin_to_quantiles(cpu, kDocumentSamples)) thinned.push_back(c);
        out["samplesCpuNs"] = std::move(thinned);
    }
    out["metrics"] = metrics_json(row, columns);
    std::vector<std::string> estimated = row.estimated_metrics();
    if (!estimated.empty()) {
        Json names = Json::array();
        for (auto& name : estimated) names.push_back(std::move(name));
        out["estimatedMetrics"] = std::move(names);
    }
    if (row.count_iterations) out["countIterations"] = *row.count_iterations;
    for (const auto& [key, value] : row.extra_fields.as_object()) out[key] = value;
    if (row.error) out["error"] = *row.error;
    return out;
}

Json build_document(const Json& meta, const std::vector<catalog::MetricDescriptor>& columns,
                    const std::vector<Row>& rows, SampleDetail detail) {
    Json doc = Json::object();
    doc["schema"] = kJsonSchema;
    doc["meta"] = meta;
    Json column_list = Json::array();
    for (const auto& column : columns) column_list.push_back(column_json(column));
    doc["columns"] = std::move(column_list);
    Json row_list = Json::array();
    for (const auto& row : rows) row_list.push_back(row_json(row, columns, detail));
    doc["rows"] = std::move(row_list);
    return doc;
}

}  // namespace glint::engine
