#include "engine/compare/gbench_document.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "engine/stats/summary.hpp"

namespace glint::engine {
namespace {

using nlohmann::json;

double ns_per(const std::string& unit) {
    return unit == "us" ? 1e3 : unit == "ms" ? 1e6 : unit == "s" ? 1e9 : 1.0;
}

}  // namespace

bool is_google_benchmark_document(const json& doc) {
    return doc.is_object() && !doc.contains("schema") && doc.contains("benchmarks") &&
           doc["benchmarks"].is_array();
}

std::optional<RunDocument> parse_google_benchmark_document(const json& doc, const std::string& path,
                                                           std::string& error) {
    RunDocument out;
    out.files = {path};
    if (const auto c = doc.find("context"); c != doc.end() && c->is_object())
        out.host = c->value("host_name", std::string());
    std::map<std::string, std::size_t> index;  // run_name -> row
    std::size_t max_reps = 0;
    for (const json& b : doc["benchmarks"]) {
        if (!b.is_object() || !b.contains("name") || !b["name"].is_string()) {
            error = "'" + path + "': a benchmark without a \"name\" (not Google Benchmark JSON)";
            return std::nullopt;
        }
        if (b.value("run_type", std::string("iteration")) == "aggregate") continue;
        const std::string name = b.value("run_name", b["name"].get<std::string>());
        auto [it, added] = index.emplace(name, out.rows.size());
        if (added) {
            DocumentRow row;
            row.registration = name;
            row.name = name;
            const int threads = b.value("threads", 1);
            if (threads > 1) row.labels = {{"threads", std::to_string(threads)}};
            out.rows.push_back(std::move(row));
        }
        DocumentRow& row = out.rows[it->second];
        if (b.value("error_occurred", false)) {
            row.error = b.value("error_message", std::string("error_occurred"));
            continue;
        }
        const auto t = b.find("real_time");
        if (t == b.end() || !t->is_number()) {
            error = "'" + path + "': \"" + name + "\" has no real_time";
            return std::nullopt;
        }
        row.repetition_medians_ns.push_back(t->get<double>() *
                                            ns_per(b.value("time_unit", std::string("ns"))));
        for (const auto& [key, metric] :
             {std::pair<const char*, const char*>{"bytes_per_second", "B/s"},
              {"items_per_second", "item/s"}})
            if (const auto m = b.find(key);
                m != b.end() && m->is_number() && row.repetition_medians_ns.size() == 1)
                row.metrics.emplace_back(metric, m->get<double>());
    }
    for (DocumentRow& row : out.rows) {
        max_reps = std::max(max_reps, row.repetition_medians_ns.size());
        row.median_ns = median(row.repetition_medians_ns);
        if (row.repetition_medians_ns.size() > 1) row.samples_ns = row.repetition_medians_ns;
    }
    out.path = path + (max_reps > 1 ? " (Google Benchmark JSON: repetitions as samples)"
                                    : " (Google Benchmark JSON: one run a row, no samples)");
    return out;
}

}  // namespace glint::engine
