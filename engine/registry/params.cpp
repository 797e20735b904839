#include "engine/registry/params.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

namespace glint::engine {
namespace {

const ParamInstance* g_instance = nullptr;

}  // namespace

std::vector<ParamInstance> instances(const Registration& r) {
    std::vector<ParamInstance> all{ParamInstance{}};
    for (const auto& p : r.params) {
        std::vector<ParamInstance> next;
        for (const auto& partial : all)
            for (std::int64_t v : p.values) {
                ParamInstance i = partial;
                i.push_back({p.name, v});
                next.push_back(std::move(i));
            }
        all = std::move(next);
    }
    return all;
}

Labels param_labels(const ParamInstance& instance) {
    Labels labels;
    for (const auto& v : instance) labels.emplace_back(v.name, std::to_string(v.value));
    return labels;
}

std::vector<std::pair<std::string, std::string>> with_param_labels(
    std::vector<std::pair<std::string, std::string>> labels, const ParamInstance& instance) {
    for (const auto& v : instance) {
        auto same = [&](const auto& l) { return l.first == v.name; };
        labels.erase(std::remove_if(labels.begin(), labels.end(), same), labels.end());
        labels.emplace_back(v.name, std::to_string(v.value));
    }
    return labels;
}

ParamScope::ParamScope(const ParamInstance& instance) : previous_(g_instance) {
    g_instance = &instance;
}
ParamScope::~ParamScope() { g_instance = previous_; }

std::string complexity_param(const Registration& r) {
    if (!r.complexity) return {};
    if (!r.complexity->param.empty()) return r.complexity->param;
    return r.params.empty() ? std::string() : r.params.front().name;
}

std::optional<std::string> registration_problem(const std::vector<Registration>& all) {
    for (const auto& r : all) {
        const std::string where = "GLINT_BENCH(\"" + r.name + "\"): ";
        for (std::size_t i = 0; i < r.params.size(); ++i) {
            const auto& p = r.params[i];
            if (!p.error.empty()) return where + p.error;
            for (std::size_t j = 0; j < i; ++j)
                if (r.params[j].name == p.name)
                    return where + "parameter '" + p.name +
                           "' is declared twice; give each "
                           "parameter its own name";
        }
        for (const auto& m : r.metrics)
            if (auto problem = metric_param_problem(r, m)) return problem;
        if (r.complexity) {
            const std::string name = complexity_param(r);
            const bool known = std::any_of(r.params.begin(), r.params.end(),
                                           [&](const glint::Param& p) { return p.name == name; });
            if (!known)
                return where +
                       (name.empty()
                            ? std::string("glint::complexity() needs a parameter: add "
                                          "glint::range(\"n\", lo, hi) or glint::values(...)")
                            : "glint::complexity(\"" + name +
                                  "\") names no parameter of this registration");
        }
    }
    return std::nullopt;
}

std::optional<std::string> metric_param_problem(const Registration& r,
                                                const glint::Metric& metric) {
    if (metric.param.empty()) return std::nullopt;
    std::string declared;
    for (const auto& p : r.params) {
        if (p.name == metric.param) return std::nullopt;
        declared += (declared.empty() ? "" : ", ") + p.name;
    }
    return "GLINT_BENCH(\"" + r.name + "\"): glint::Metric \"" + metric.unit +
           "\" scales by parameter '" + metric.param +
           "', which this registration does not declare (" +
           (declared.empty() ? std::string("it has no parameters")
                             : "its parameters: " + declared) +
           "); name a declared one, or add glint::range(\"" + metric.param +
           "\", lo, hi) or glint::values(\"" + metric.param + "\", {...})";
}

std::vector<glint::Metric> resolve_metrics(const Registration& r, const ParamInstance& instance,
                                           std::vector<glint::Metric> metrics) {
    for (auto& m : metrics) {
        if (m.param.empty()) continue;
        if (auto problem = metric_param_problem(r, m)) throw MetricParamError(*problem);
        for (const auto& v : instance)
            if (v.name == m.param) m.amount *= static_cast<double>(v.value);
        m.param.clear();
    }
    return metrics;
}

unsigned threads_of(const ParamInstance& instance) {
    for (const auto& v : instance)
        if (v.name == "threads" && v.value > 1) return static_cast<unsigned>(v.value);
    return 1;
}

}  // namespace glint::engine

namespace glint {

Param range(std::string name, std::int64_t lo, std::int64_t hi, std::int64_t factor) {
    Param p{std::move(name), {}, {}};
    const std::string call = "glint::range(\"" + p.name + "\", " + std::to_string(lo) + ", " +
                             std::to_string(hi) + ", " + std::to_string(factor) + "): ";
    if (p.name.empty()) p.error = call + "a parameter needs a name";
    else if (lo < 1) p.error = call + "lo must be at least 1";
    else if (hi < lo) p.error = call + "hi must be at least lo";
    else if (factor < 2) p.error = call + "the factor must be at least 2";
    if (!p.error.empty()) return p;
    for (std::int64_t v = lo;; v *= factor) {
        p.values.push_back(v);
        if (v > hi / factor) break;  // the next value would pass hi (or overflow)
    }
    if (p.values.back() != hi) p.values.push_back(hi);
    return p;
}

Param values(std::string name, std::vector<std::int64_t> list) {
    Param p{std::move(name), std::move(list), {}};
    const std::string call = "glint::values(\"" + p.name + "\", ...): ";
    if (p.name.empty()) p.error = call + "a parameter needs a name";
    else if (p.values.empty()) p.error = call + "give at least one value";
    for (std::size_t i = 0; p.error.empty() && i < p.values.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (p.values[i] == p.values[j]) {
                p.error = call + "the value " + std::to_string(p.values[i]) + " is listed twice";
                break;
            }
    return p;
}

Param threads(std::vector<std::int64_t> counts) {
    constexpr std::int64_t kMaxThreads = 1024;
    Param p = values("threads", std::move(counts));
    const std::string call = "glint::threads(...): ";
    if (!p.error.empty()) {
        p.error = call + p.error.substr(p.error.find("): ") + 3);
        return p;
    }
    for (const std::int64_t n : p.values)
        if (n < 1 || n > kMaxThreads) {
            p.error = call + std::to_string(n) + " threads: give counts from 1 to " +
                      std::to_string(kMaxThreads);
            break;
        }
    return p;
}

std::int64_t param(std::string_view name) {
    const engine::ParamInstance* instance = engine::g_instance;
    if (!instance || instance->empty())
        throw std::logic_error(
            "glint::param(): this body has no parameter; register one with "
            "glint::range(\"n\", lo, hi) or glint::values(\"n\", {...})");
    if (name.empty()) {
        if (instance->size() == 1) return instance->front().value;
        throw std::logic_error(
            "glint::param(): this body has several parameters; name one, "
            "e.g. glint::param(\"" +
            instance->front().name + "\")");
    }
    for (const auto& v : *instance)
        if (v.name == name) return v.value;
    throw std::logic_error("glint::param(\"" + std::string(name) + "\"): no such parameter");
}

}  // namespace glint
