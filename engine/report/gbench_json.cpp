#include "engine/report/gbench_json.hpp"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/stats/summary.hpp"

namespace glint::engine {
namespace {

using nlohmann::ordered_json;

double unit_scale(const std::string& unit) {  // ns per unit
    return unit == "us" ? 1e3 : unit == "ms" ? 1e6 : unit == "s" ? 1e9 : 1.0;
}

double number_or_nan(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : NAN;
}

ordered_json time_or_null(double ns, double scale) {
    return std::isfinite(ns) ? ordered_json(ns / scale) : ordered_json(nullptr);
}

std::string native_name(const nlohmann::json& row) {
    std::string name = row.value("registration", row.value("name", std::string()));
    const std::string own = row.value("name", std::string());
    if (!own.empty() && own != name) name += "/" + own;
    if (const auto l = row.find("labels"); l != row.end() && l->is_object())
        for (const auto& [k, v] : l->items())
            name += "/" + k + ":" + (v.is_string() ? v.get<std::string>() : v.dump());
    return name;
}

// Counters from the row's client metrics.
void add_counters(const nlohmann::json& row, const nlohmann::json& client, ordered_json& out) {
    const auto m = row.find("metrics");
    if (m == row.end() || !m->is_object()) return;
    for (const auto& [key, value] : m->items()) {
        if (!value.is_number() || !client.contains(key)) continue;
        std::string name = key;
        if (key == "B/s") name = "bytes_per_second";
        else if (key == "item/s") name = "items_per_second";
        else if (name.size() > 2 && name.compare(name.size() - 2, 2, "/s") == 0)
            name.resize(name.size() - 2);
        out[name] = value;
    }
}

}  // namespace

std::string google_benchmark_json(std::string_view text, const GbJsonOptions& o) {
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("rows"))
        throw std::runtime_error(
            "not a glint document (no \"rows\"): was it written by --bench-json?");
    nlohmann::json client = nlohmann::json::object();
    if (const auto c = doc.find("columns"); c != doc.end() && c->is_array())
        for (const auto& col : *c)
            if (col.value("source", "") == "client") client[col.value("name", "")] = true;
    const nlohmann::json meta = doc.value("meta", nlohmann::json::object());
    ordered_json context;
    char date[64] = "";
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", std::localtime(&now));
    context["date"] = date;
    context["host_name"] = meta.value("host", "");
    context["executable"] = o.executable;
    context["num_cpus"] = meta.value("cpus", 0);
    context["library_build_type"] = "release";
    context["glint"] = meta.value("glint", "");
    context["glint_notes"] = {
        "real_time: glint's median per iteration over its samples; cpu_time: the median of the "
        "CPU samples",
        "repetitions: each is one repetition's median; its cpu_time is scaled by the row's "
        "CPU/wall ratio"};
    for (const auto& [k, v] : o.context) context[k] = v;

    ordered_json benchmarks = ordered_json::array();
    std::map<std::string, int> families;
    int per_family = 0;
    for (const auto& row : doc["rows"]) {
        const std::string registration = row.value("registration", row.value("name", ""));
        const auto known = o.rows.find(registration);
        const bool dropin = known != o.rows.end();
        const std::string name = dropin ? registration : native_name(row);
        GbJsonOptions::Instance in;
        if (dropin) {
            in = known->second;
        } else {
            const auto [it, added] =
                families.emplace(registration, static_cast<int>(families.size()));
            per_family = added ? 0 : per_family + 1;
            in.family_index = it->second;
            in.per_family_index = per_family;
            in.threads = row.value("threads", 1);
        }
        const std::string unit = in.unit.empty() ? o.default_unit : in.unit;
        const double scale = unit_scale(unit);
        std::vector<double> reps;
        if (const auto r = row.find("repetitionMediansNs"); r != row.end() && r->is_array())
            for (const auto& v : *r)
                if (v.is_number()) reps.push_back(v.get<double>());
        const int repetitions = std::max<int>(1, static_cast<int>(reps.size()));
        ordered_json base;
        base["name"] = name;
        base["family_index"] = in.family_index;
        base["per_family_instance_index"] = in.per_family_index;
        base["run_name"] = name;
        base["run_type"] = "iteration";
        base["repetitions"] = repetitions;
        base["repetition_index"] = 0;
        base["threads"] = in.threads;
        if (const auto e = row.find("error"); e != row.end() && e->is_string()) {
            base["error_occurred"] = true;
            base["error_message"] = *e;
            benchmarks.push_back(base);
            continue;
        }
        const double wall = number_or_nan(row, "medianNs");
        double cpu = NAN;
        std::vector<double> cpu_samples;
        if (const auto s = row.find("samplesCpuNs"); s != row.end() && s->is_array())
            for (const auto& v : *s)
                if (v.is_number()) cpu_samples.push_back(v.get<double>());
        if (!cpu_samples.empty()) cpu = median(cpu_samples);  // else not measured: null
        const double iterations =
            number_or_nan(row, "samples") * number_or_nan(row, "iterationsPerSample");
        base["iterations"] = std::isfinite(iterations)
                                 ? ordered_json(static_cast<std::int64_t>(iterations))
                                 : ordered_json(nullptr);
        base["real_time"] = time_or_null(wall, scale);
        base["cpu_time"] = time_or_null(cpu, scale);
        base["time_unit"] = unit;
        add_counters(row, client, base);
        if (reps.size() <= 1) {
            benchmarks.push_back(base);
            continue;
        }
        const double cpu_ratio = std::isfinite(cpu) && wall > 0 ? cpu / wall : NAN;
        for (std::size_t i = 0; i < reps.size(); ++i) {
            ordered_json r = base;
            r["repetition_index"] = i;
            r["real_time"] = time_or_null(reps[i], scale);
            r["cpu_time"] = time_or_null(reps[i] * cpu_ratio, scale);
            benchmarks.push_back(r);
        }
        const Moments m = moments(reps);
        const std::pair<const char*, double> aggregates[] = {
            {"mean", m.mean}, {"median", median(reps)}, {"stddev", m.stddev}, {"cv", m.cv}};
        for (const auto& [agg, value] : aggregates) {
            ordered_json a;
            a["name"] = name + "_" + agg;
            a["family_index"] = in.family_index;
            a["per_family_instance_index"] = in.per_family_index;
            a["run_name"] = name;
            a["run_type"] = "aggregate";
            a["repetitions"] = repetitions;
            a["threads"] = in.threads;
            a["aggregate_name"] = agg;
            a["aggregate_unit"] = std::string(agg) == "cv" ? "percentage" : "time";
            a["iterations"] = repetitions;
            const bool cv = std::string(agg) == "cv";
            a["real_time"] = cv ? ordered_json(value) : time_or_null(value, scale);
            a["cpu_time"] = cv ? ordered_json(value) : time_or_null(value * cpu_ratio, scale);
            a["time_unit"] = unit;
            benchmarks.push_back(a);
        }
    }
    ordered_json out;
    out["context"] = context;
    out["benchmarks"] = benchmarks;
    return out.dump(2) + "\n";
}

}  // namespace glint::engine
