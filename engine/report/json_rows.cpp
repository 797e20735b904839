#include "engine/report/json_rows.hpp"

#include <algorithm>
#include <stdexcept>

#include "engine/model/json_limits.hpp"
#include "engine/report/stability_json.hpp"

namespace glint::engine {
namespace {

const Json& member(const Json& json, std::string_view key) {
    const Json* found = json.find(key);
    if (!found) throw std::runtime_error("a JSON row has no '" + std::string(key) + "'");
    return *found;
}

double number(const Json& json, std::string_view key) {
    const Json& v = member(json, key);
    return v.is_number() ? v.as_number() : catalog::kNotMeasured;
}

// The members row_json writes from Row's own fields (timing, metrics, identity, error).
bool is_row_member(std::string_view key) {
    static constexpr std::string_view kOwn[] = {"name",
                                                "registration",
                                                "labels",
                                                "displayName",
                                                "error",
                                                "samples",
                                                "iterationsPerSample",
                                                "perCall",
                                                "medianNs",
                                                "madNs",
                                                "minNs",
                                                "maxNs",
                                                "meanNs",
                                                "stddevNs",
                                                "cv",
                                                "resolutionNs",
                                                "medianResolved",
                                                "samplesNs",
                                                "repetitionMediansNs",
                                                "metrics",
                                                "estimatedMetrics",
                                                "countIterations",
                                                "samplesNsThinned",
                                                "estimator",
                                                "spreadNs",
                                                "cleanSamples",
                                                "disturbedSamples",
                                                "slowCoreSamples",
                                                "coreStepNs",
                                                "split",
                                                "retaken"};
    return std::find(std::begin(kOwn), std::end(kOwn), key) != std::end(kOwn);
}

}  // namespace

Row row_from_json(const Json& json, const std::vector<catalog::MetricDescriptor>& catalog) {
    if (!json.is_object()) throw std::runtime_error("a JSON row is not an object");
    Row row;
    const Json& name = member(json, "name");
    if (!name.is_string()) throw std::runtime_error("a JSON row's name is not a string");
    row.name = name.as_string();
    if (const Json* r = json.find("registration"); r && r->is_string())
        row.registration = r->as_string();
    if (const Json* labels = json.find("labels"); labels && labels->is_object())
        for (const auto& [k, v] : labels->as_object())
            row.labels.emplace_back(k, v.is_string() ? v.as_string() : v.dump(-1));
    row.labels = sorted_labels(std::move(row.labels));
    if (const Json* error = json.find("error"); error && error->is_string())
        row.error = error->as_string();
    if (const Json* samples = json.find("samples"); samples && samples->is_number()) {
        TimingSummary t;
        t.samples = json_integer<std::uint64_t>(samples->as_number());
        t.iterations_per_sample = json_integer<std::uint64_t>(number(json, "iterationsPerSample"));
        t.per_call = member(json, "perCall") == Json(true);
        t.median_ns = number(json, "medianNs");
        t.mad_ns = number(json, "madNs");
        t.min_ns = number(json, "minNs");
        t.max_ns = number(json, "maxNs");
        if (const Json* r = json.find("resolutionNs"); r && r->is_number())
            t.resolution_ns = r->as_number();
        if (const Json* e = json.find("estimator"); e && e->is_string())
            t.estimator = e->as_string();
        if (const Json* r = json.find("spreadNs"); r && r->is_number())
            t.spread_ns = r->as_number();
        if (const Json* c = json.find("cleanSamples"); c && c->is_number())
            t.clean_samples = json_integer<std::uint64_t>(c->as_number());
        if (const Json* d = json.find("disturbedSamples"); d && d->is_number())
            t.disturbed_samples = json_integer<std::uint64_t>(d->as_number());
        if (const Json* c = json.find("slowCoreSamples"); c && c->is_number())
            t.slow_core_samples = json_integer<std::uint64_t>(c->as_number());
        if (const Json* c = json.find("coreStepNs"); c && c->is_number())
            t.core_step_ns = c->as_number();
        t.split = json.find("split") && *json.find("split") == Json(true);
        t.retaken = json.find("retaken") && *json.find("retaken") == Json(true);
        if (const Json* list = json.find("samplesNs"); list && list->is_array())
            for (const Json& s : list->as_array())
                t.sample_ns.push_back(s.is_number() ? s.as_number() : catalog::kNotMeasured);
        if (const Json* list = json.find("repetitionMediansNs"); list && list->is_array())
            for (const Json& m : list->as_array())
                t.repetition_median_ns.push_back(m.is_number() ? m.as_number()
                                                               : catalog::kNotMeasured);
        row.timing = std::move(t);
    }
    std::vector<std::string> estimated;
    if (const Json* e = json.find("estimatedMetrics"); e && e->is_array())
        for (const Json& n : e->as_array())
            if (n.is_string()) estimated.push_back(n.as_string());
    if (const Json* metrics = json.find("metrics"); metrics && metrics->is_object()) {
        for (const auto& member : metrics->as_object()) {
            const std::string& key = member.first;
            const Json& value = member.second;
            const auto d = std::find_if(catalog.begin(), catalog.end(),
                                        [&](const auto& m) { return m.name == key; });
            catalog::MetricDescriptor descriptor;
            if (d != catalog.end()) descriptor = *d;
            else descriptor.name = descriptor.header = key;
            const bool scaled =
                std::find(estimated.begin(), estimated.end(), key) != estimated.end();
            row.cells.push_back(catalog::make_cell(
                descriptor, value.is_number() ? value.as_number() : catalog::kNotMeasured, scaled));
        }
    }
    if (const Json* c = json.find("countIterations"); c && c->is_number())
        row.count_iterations = json_integer<std::uint64_t>(c->as_number());
    read_stability_json(json, row);
    // Every other member is a field a tier added (row_json writes Row::extra_fields as members).
    for (const auto& [key, value] : json.as_object())
        if (!is_row_member(key) && !is_stability_member(key)) row.extra_fields[key] = value;
    return row;
}

}  // namespace glint::engine
