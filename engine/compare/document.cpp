#include "engine/compare/document.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <new>
#include <stdexcept>
#include <unordered_map>

#include "engine/compare/document_stream.hpp"
#include "engine/compare/gbench_document.hpp"
#include "engine/compare/memory_reserve.hpp"
#include "engine/model/not_measured.hpp"
#include "engine/stats/summary.hpp"
#include "os/files.hpp"
#include "os/process.hpp"

namespace glint::engine {
namespace {

using nlohmann::json;

// A problem with one field of one row: caught and turned into the one-line error.
struct BadField : std::runtime_error {
    using std::runtime_error::runtime_error;
};

double number_or_nan(const json& v, const char* field) {
    if (v.is_null()) return kNan;
    if (!v.is_number()) throw BadField(std::string("\"") + field + "\" is not a number");
    return v.get<double>();
}

std::vector<double> numbers(const json& row, const char* field) {
    std::vector<double> out;
    const auto it = row.find(field);
    if (it == row.end() || it->is_null()) return out;
    if (!it->is_array()) throw BadField(std::string("\"") + field + "\" is not an array");
    out.reserve(it->size());  // exactly: a row's samples are most of a document's memory
    for (const json& v : *it) {
        const double d = number_or_nan(v, field);
        if (std::isfinite(d)) out.push_back(d);
    }
    return out;
}

std::string string_field(const json& row, const char* field, bool required) {
    const auto it = row.find(field);
    if (it == row.end() || it->is_null()) {
        if (required) throw BadField(std::string("has no \"") + field + "\"");
        return {};
    }
    if (!it->is_string()) throw BadField(std::string("\"") + field + "\" is not a string");
    return it->get<std::string>();
}

DocumentRow read_row(const json& r, bool& has_registration) {
    if (!r.is_object()) throw BadField("is not an object");
    DocumentRow row;
    row.name = string_field(r, "name", true);
    has_registration = r.contains("registration");
    row.registration = string_field(r, "registration", false);
    if (const auto l = r.find("labels"); l != r.end() && !l->is_null()) {
        if (!l->is_object()) throw BadField("\"labels\" is not an object");
        for (const auto& [k, v] : l->items())
            row.labels.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
        row.labels = sorted_labels(std::move(row.labels));
    }
    if (r.contains("error") && !r["error"].is_null()) row.error = string_field(r, "error", true);
    if (const auto pc = r.find("perCall"); pc != r.end() && pc->is_boolean())
        row.per_call = pc->get<bool>();
    if (const auto mr = r.find("medianResolved"); mr != r.end() && mr->is_boolean())
        row.resolved = mr->get<bool>();
    row.median_ns = r.contains("medianNs") ? number_or_nan(r["medianNs"], "medianNs") : kNan;
    row.samples_ns = numbers(r, "samplesNs");
    row.repetition_medians_ns = numbers(r, "repetitionMediansNs");
    if (row.repetition_medians_ns.empty() && std::isfinite(row.median_ns))
        row.repetition_medians_ns = {row.median_ns};
    if (const auto m = r.find("metrics"); m != r.end() && !m->is_null()) {
        if (!m->is_object()) throw BadField("\"metrics\" is not an object");
        for (const auto& [k, v] : m->items())
            row.metrics.emplace_back(k, number_or_nan(v, "metrics"));
    }
    if (const auto e = r.find("estimatedMetrics"); e != r.end() && e->is_array())
        for (const json& v : *e)
            if (v.is_string()) row.estimated.push_back(v.get<std::string>());
    if (const auto u = r.find("unstable"); u != r.end() && u->is_array())
        for (const json& v : *u)
            if (v.is_string()) row.unstable.push_back(v.get<std::string>());
    row.unstable_runs = row.unstable.empty() ? 0 : 1;
    row.cpu_samples_ns = numbers(r, "samplesCpuNs");
    const auto number_of = [&r](const char* field) {
        return r.contains(field) ? number_or_nan(r[field], field) : kNan;
    };
    RunEvidence run{row.median_ns, row.unstable};
    run.cpu_wall = number_of("cpuWallRatio");
    const double samples = number_of("samples");
    if (samples > 0) run.slow_core_share = number_of("slowCoreSamples") / samples;
    run.core_step_ns = number_of("coreStepNs");
    row.runs = {std::move(run)};
    return row;
}

std::string string_of(const json& object, const char* field) {
    const auto it = object.find(field);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// "optimized" when the library and the cases were built with optimization, "unoptimized" when
// either was not, "" when the document does not say.
std::string build_of(const json& meta) {
    const auto b = meta.find("build");
    if (b == meta.end() || !b->is_object()) return {};
    bool known = false, optimized = true;
    for (const char* field : {"libraryOptimized", "casesOptimized"})
        if (const auto f = b->find(field); f != b->end() && f->is_boolean()) {
            known = true;
            optimized = optimized && f->get<bool>();
        }
    if (const auto a = b->find("assertions"); a != b->end() && a->is_boolean() && a->get<bool>())
        return optimized ? "optimized, assertions" : "unoptimized, assertions";
    return known ? (optimized ? "optimized" : "unoptimized") : std::string();
}

std::string labels_text(const Labels& labels, bool with_keys) {
    std::string out;
    for (const auto& [k, v] : labels)
        out += (out.empty() ? "" : ", ") + (with_keys ? k + "=" + v : v);
    return out;
}

}  // namespace

std::optional<double> DocumentRow::instructions() const {
    for (const auto& e : estimated)
        if (e == "instr") return std::nullopt;
    const double v = metric("instr");
    if (!std::isfinite(v)) return std::nullopt;
    return v;
}

double DocumentRow::metric(std::string_view metric_name) const {
    for (const auto& [k, v] : metrics)
        if (k == metric_name) return v;
    return kNan;
}

std::string identity_key(const DocumentRow& row, bool with_registration) {
    return identity_key(with_registration ? row.registration : std::string(), row.name, row.labels);
}

std::string identity_text(const DocumentRow& row) {
    return display_name(row.registration, row.name, row.labels);
}

std::optional<RunDocument> read_document(const std::string& path, std::string& error) {
    std::string text;
    if (auto problem = os::read_regular_file(path, kMaxDocumentBytes, text)) {
        error = problem->message +
                (problem->missing ? " (write one with --bench-json=FILE first)" : "");
        return std::nullopt;
    }
    return parse_document(text, path, error);
}

std::optional<RunDocument> parse_document(std::string_view text, const std::string& path,
                                          std::string& error) {
    RunDocument out;
    std::optional<std::string> bad_row;  // the first row that could not be read, as the error
    DocumentEvents events;
    events.rows_begin = [&] {
        out = RunDocument{};  // no rows, every one with a registration so far
        bad_row.reset();
    };
    events.row = [&](json&& r) {  // read as it is parsed: the document's rows are never a tree
        if (bad_row) return;
        try {
            bool has_registration = false;
            out.rows.push_back(read_row(r, has_registration));
            out.has_registrations = out.has_registrations && has_registration;
        } catch (const std::bad_alloc&) {
            throw;  // not the row's fault: read_side names the file and the memory limit
        } catch (const std::exception& e) {  // BadField, or a type error nlohmann reports
            bad_row = "'" + path + "': row " + std::to_string(out.rows.size() + 1) + " " + e.what();
        }
    };
    json doc;
    try {
        doc = stream_document(text, events);
    } catch (const JsonReadError& e) {
        error = "'" + path +
                (e.too_deep ? "' nests deeper than " + std::to_string(kMaxJsonDepth) +
                                  " levels: not a glint --bench-json document"
                            : "' is not JSON: " + std::string(e.what()));
        return std::nullopt;
    }
    if (is_google_benchmark_document(doc)) return parse_google_benchmark_document(doc, path, error);
    const auto schema = doc.is_object() ? doc.find("schema") : doc.end();
    if (!doc.is_object() || schema == doc.end() || !schema->is_number() || *schema != 2) {
        error = "'" + path + "' is not a glint --bench-json document of schema 2";
        return std::nullopt;
    }
    const auto rows = doc.find("rows");
    if (rows == doc.end() || !rows->is_array()) {
        error = "'" + path + "' has no rows array";
        return std::nullopt;
    }
    out.path = path;
    out.files = {path};
    if (const auto meta = doc.find("meta"); meta != doc.end() && meta->is_object()) {
        out.host = string_of(*meta, "host");
        out.cpu_model = string_of(*meta, "cpu");
        out.glint_version = string_of(*meta, "glint");
        out.build = build_of(*meta);
        const auto stability = meta->find("stability");
        if (stability != meta->end() && stability->is_object() && stability->contains("reasons") &&
            (*stability)["reasons"].is_object())
            for (const auto& [code, meaning] : (*stability)["reasons"].items())
                if (meaning.is_string()) out.reasons.emplace_back(code, meaning.get<std::string>());
    }
    if (const auto cols = doc.find("columns"); cols != doc.end() && cols->is_array())
        for (const json& c : *cols)
            if (c.is_object() && c.contains("name") && c["name"].is_string())
                out.columns.push_back({c["name"].get<std::string>(),
                                       c.value("header", c["name"].get<std::string>()),
                                       c.value("format", std::string("count"))});
    if (bad_row) {
        error = *bad_row;
        return std::nullopt;
    }
    if (auto twice = duplicate_identity(out)) {
        error = "'" + path + "' has two rows with the identity " + *twice +
                ": rows must differ in registration, name or labels to be compared";
        return std::nullopt;
    }
    return out;
}

std::optional<std::string> duplicate_identity(const RunDocument& doc) {
    std::unordered_map<std::string, const DocumentRow*> seen;
    seen.reserve(doc.rows.size());
    for (const auto& row : doc.rows) {
        if (seen.emplace(identity_key(row, doc.has_registrations), &row).second) continue;
        std::string text = "registration '" + row.registration + "', name '" + row.name + "'";
        if (!doc.has_registrations) text = "name '" + row.name + "'";
        return text + ", labels {" + labels_text(row.labels, true) + "}";
    }
    return std::nullopt;
}

RunDocument merge_runs(std::vector<RunDocument> runs) {
    if (runs.size() == 1) return std::move(runs.front());
    RunDocument out;
    out.host = runs.front().host;
    out.cpu_model = runs.front().cpu_model;
    out.glint_version = runs.front().glint_version;
    out.build = runs.front().build;
    out.columns = runs.front().columns;
    std::unordered_map<std::string, std::size_t> index;
    for (const auto& run : runs)
        out.has_registrations = out.has_registrations && run.has_registrations;
    for (auto& run : runs) {
        out.path += (out.path.empty() ? "" : ",") + run.path;
        out.files.insert(out.files.end(), run.files.begin(), run.files.end());
        for (auto& reason : run.reasons)
            if (std::find(out.reasons.begin(), out.reasons.end(), reason) == out.reasons.end())
                out.reasons.push_back(reason);
        for (auto& row : run.rows) {
            const std::string key = identity_key(row, out.has_registrations);
            const auto [it, fresh] = index.emplace(key, out.rows.size());
            if (fresh) {
                out.rows.push_back(std::move(row));
                continue;
            }
            DocumentRow& into = out.rows[it->second];
            into.runs.insert(into.runs.end(), row.runs.begin(), row.runs.end());
            into.cpu_samples_ns.insert(into.cpu_samples_ns.end(), row.cpu_samples_ns.begin(),
                                       row.cpu_samples_ns.end());
            if (row.error && !into.error) into.error = row.error;
            into.resolved = into.resolved && row.resolved;
            into.unstable_runs += row.unstable_runs;
            for (auto& reason : row.unstable)
                if (std::find(into.unstable.begin(), into.unstable.end(), reason) ==
                    into.unstable.end())
                    into.unstable.push_back(reason);
            into.samples_ns.insert(into.samples_ns.end(), row.samples_ns.begin(),
                                   row.samples_ns.end());
            into.repetition_medians_ns.insert(into.repetition_medians_ns.end(),
                                              row.repetition_medians_ns.begin(),
                                              row.repetition_medians_ns.end());
        }
    }
    for (auto& row : out.rows)
        if (!row.error && !row.repetition_medians_ns.empty())
            row.median_ns = median(row.repetition_medians_ns);
    return out;
}

std::vector<std::string> side_files(const std::string& argument) {
    std::error_code ec;
    if (argument.find(',') == std::string::npos || std::filesystem::exists(argument, ec))
        return {argument};
    std::vector<std::string> files;
    std::size_t start = 0;
    while (start <= argument.size()) {
        const std::size_t comma = std::min(argument.find(',', start), argument.size());
        if (comma > start) files.push_back(argument.substr(start, comma - start));
        start = comma + 1;
    }
    return files;
}

std::optional<RunDocument> read_side(const std::string& argument, std::string& error) {
    std::vector<RunDocument> runs;
    std::string file_at_fault = argument;
    try {
        const MemoryReserve reserve;  // a document too large is std::bad_alloc, never a crash
        for (const auto& file : side_files(argument)) {
            file_at_fault = file;
            auto doc = read_document(file, error);
            if (!doc) return std::nullopt;
            runs.push_back(std::move(*doc));
        }
        file_at_fault = argument;
        if (runs.empty()) {
            error = "'" + argument + "' names no file";
            return std::nullopt;
        }
        return merge_runs(std::move(runs));
    } catch (const std::bad_alloc&) {
        runs.clear();
        runs.shrink_to_fit();
        error = out_of_memory("'" + file_at_fault + "'");
        return std::nullopt;
    }
}

std::string out_of_memory(const std::string& what) {
    const unsigned long long limit = os::address_space_limit();
    return what + " does not fit in the memory this process may use" +
           (limit ? " (the address-space limit, ulimit -v, is " +
                        std::to_string(limit / (1024 * 1024)) + " MiB)"
                  : std::string()) +
           ": raise the limit, or compare fewer rows or runs at once";
}

DocumentRow document_row(const Row& row) {
    DocumentRow out;
    out.registration = row.registration;
    out.name = row.name;
    out.labels = sorted_labels(row.labels);
    out.error = row.error;
    out.median_ns = kNan;
    if (row.timing && !row.error) {
        const TimingSummary& t = *row.timing;
        out.per_call = t.per_call;
        out.resolved = t.median_resolved();
        out.median_ns = t.median_ns;
        out.samples_ns = t.sample_ns;
        out.repetition_medians_ns = t.repetition_median_ns;
        if (out.repetition_medians_ns.empty()) out.repetition_medians_ns = {t.median_ns};
    }
    for (const auto& cell : row.cells) out.metrics.emplace_back(cell.name, cell.value);
    out.estimated = row.estimated_metrics();
    if (row.stability) out.unstable = row.stability->unstable;
    out.unstable_runs = out.unstable.empty() ? 0 : 1;
    RunEvidence run{out.median_ns, out.unstable};
    if (row.timing && !row.error) {
        const TimingSummary& t = *row.timing;
        for (double c : t.sample_cpu_ns)
            if (std::isfinite(c)) out.cpu_samples_ns.push_back(c);
        run.cpu_wall = t.cpu_wall_ratio();
        if (t.slow_core_samples && t.samples > 0)
            run.slow_core_share =
                static_cast<double>(*t.slow_core_samples) / static_cast<double>(t.samples);
        run.core_step_ns = t.core_step_ns;
    }
    out.runs = {std::move(run)};
    return out;
}

RunDocument document_of_rows(const std::vector<Row>& rows, std::string description) {
    RunDocument doc;
    doc.path = std::move(description);
    doc.files = {doc.path};
    for (const auto& row : rows) doc.rows.push_back(document_row(row));
    return doc;
}

}  // namespace glint::engine
