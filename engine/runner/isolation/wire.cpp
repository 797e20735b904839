#include "engine/runner/isolation/wire.hpp"

#include <stdexcept>

#include "engine/model/json_limits.hpp"
#include "engine/report/json_report.hpp"
#include "engine/runner/bench/case_measure.hpp"
#include "os/process.hpp"

namespace glint::engine {

Json metrics_json(const std::vector<glint::Metric>& metrics) {
    Json out = Json::array();
    for (const auto& m : metrics) {
        Json metric = Json::object();
        metric["unit"] = m.unit;
        metric["amount"] = m.amount;
        metric["mode"] = m.mode == glint::Metric::rate    ? "rate"
                         : m.mode == glint::Metric::level ? "level"
                         : m.mode == glint::Metric::clock ? "clock"
                                                          : "unit";
        if (!m.param.empty()) metric["param"] = m.param;
        if (m.estimated) metric["estimated"] = true;
        out.push_back(std::move(metric));
    }
    return out;
}

std::vector<glint::Metric> metrics_from_json(const Json& json) {
    std::vector<glint::Metric> out;
    if (!json.is_array()) return out;
    for (const Json& m : json.as_array()) {
        const Json* unit = m.find("unit");
        const Json* amount = m.find("amount");
        const Json* mode = m.find("mode");
        const Json* param = m.find("param");
        if (!unit || !unit->is_string() || !amount || !amount->is_number())
            throw std::runtime_error("a metric lacks its unit or amount");
        const std::string how = mode && mode->is_string() ? mode->as_string() : "rate";
        const Json* estimated = m.find("estimated");
        out.push_back(
            glint::Metric{unit->as_string(), amount->as_number(),
                          how == "level"   ? glint::Metric::level
                          : how == "clock" ? glint::Metric::clock
                          : how == "unit"  ? glint::Metric::in_unit
                                           : glint::Metric::rate,
                          param && param->is_string() ? param->as_string() : std::string(),
                          estimated && estimated->is_bool() && estimated->as_bool()});
    }
    return out;
}

Json deferred_json(const std::string& registration, std::size_t index, const glint::CaseInfo& info,
                   std::size_t instance) {
    Json out = Json::object();
    out["registration"] = registration;
    out["index"] = static_cast<unsigned long>(index);
    out["instance"] = static_cast<unsigned long>(instance);
    out["name"] = info.name;
    Json labels = Json::array();
    for (const auto& [k, v] : info.labels) labels.push_back(Json::Array{Json(k), Json(v)});
    out["labels"] = std::move(labels);
    out["metrics"] = metrics_json(info.metrics);
    out["iterations"] = info.iterations;
    return out;
}

DeferredCase deferred_from_json(const Json& json) {
    auto text = [&](const Json& j, std::string_view key) -> std::string {
        const Json* v = j.find(key);
        if (!v || !v->is_string())
            throw std::runtime_error("a deferred case lacks '" + std::string(key) + "'");
        return v->as_string();
    };
    auto number = [&](const Json& j, std::string_view key) -> double {
        const Json* v = j.find(key);
        if (!v || !v->is_number())
            throw std::runtime_error("a deferred case lacks '" + std::string(key) + "'");
        return v->as_number();
    };
    DeferredCase d;
    d.registration = text(json, "registration");
    d.index = json_integer<std::size_t>(number(json, "index"));
    d.instance = json_integer<std::size_t>(number(json, "instance"));
    d.info.name = text(json, "name");
    d.info.iterations = json_integer<std::uint64_t>(number(json, "iterations"));
    if (const Json* labels = json.find("labels"); labels && labels->is_array())
        for (const Json& pair : labels->as_array())
            if (pair.is_array() && pair.size() == 2 && pair.as_array()[0].is_string() &&
                pair.as_array()[1].is_string())
                d.info.labels.emplace_back(pair.as_array()[0].as_string(),
                                           pair.as_array()[1].as_string());
    if (const Json* metrics = json.find("metrics")) d.info.metrics = metrics_from_json(*metrics);
    return d;
}

void ChildStream::send(const char* key, Json value) {
    Json line = Json::object();
    line[key] = std::move(value);
    // A parent that is gone kills the child (PR_SET_PDEATHSIG): a failed write means the case
    // closed or replaced the pipe's descriptor, which the parent is told by the exit status.
    if (!os::write_to_parent(fd_, line.dump(-1) + "\n")) os::exit_immediately(kChildLostPipeExit);
}

// The parent knows the labels of what it asked the child to run.
void ChildStream::case_started(const std::string& name, const Labels&) { send("case", name); }

void ChildStream::case_failed(const FailedCase& c, const std::string& message) {
    const std::vector<glint::Metric> metrics =
        c.metrics ? *c.metrics : std::vector<glint::Metric>{};
    row_finished(CaseMeasurer::error_row(
        {c.name, c.display, c.labels, {}, 0, metrics, c.registration}, message));
}

void ChildStream::case_deferred(DeferredCase d) {
    send("deferred", deferred_json(d.registration, d.index, d.info, d.instance));
}

// Every sample: the parent thins them where it writes documents.
void ChildStream::row_finished(const Row& row) {
    send("row", row_json(row, {}, SampleDetail::all));
}

}  // namespace glint::engine
