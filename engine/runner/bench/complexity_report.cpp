#include "engine/runner/bench/complexity_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "engine/registry/params.hpp"
#include "engine/report/json_report.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/stats/complexity.hpp"

namespace glint::engine {

void ComplexityCollector::add(const Registration& registration, const std::string& path,
                              const Row& row) {
    const std::string parameter = complexity_param(registration);
    if (parameter.empty() || row.is_error() || !row.timing) return;
    Labels others;
    double n = 0;
    bool found = false;
    for (const auto& [k, v] : row.labels) {
        if (k == parameter) {
            n = std::strtod(v.c_str(), nullptr);
            found = true;
        } else {
            others.emplace_back(k, v);
        }
    }
    if (!found) return;
    auto it = std::find_if(series_.begin(), series_.end(), [&](const Series& s) {
        return s.registration == registration.name && s.path == path && s.others == others;
    });
    if (it == series_.end()) {
        series_.push_back({registration.name, path, parameter, others, {}, {}});
        it = series_.end() - 1;
    }
    it->n.push_back(n);
    it->median_ns.push_back(row.timing->median_ns);
}

std::vector<std::string> ComplexityCollector::lines() const {
    std::vector<std::string> out;
    for (const Series& s : series_) {
        const std::string who = s.path + label_suffix(s.others);
        std::string why;
        const auto fit = fit_complexity(s.n, s.median_ns, why);
        if (!fit) {
            out.push_back(fmt::format("complexity: {}: no fit over {}: {}", who, s.parameter, why));
            continue;
        }
        const ModelFit& best = fit->best_fit();
        const auto [lo, hi] = std::minmax_element(s.n.begin(), s.n.end());
        const std::string term = model_term(best.model, s.parameter);
        if (!fit->decided()) {
            const ModelFit& next = fit->runner_up_fit();
            out.push_back(fmt::format(
                "complexity: {} undecided: {} (rms {:.1f}%) and {} (rms {:.1f}%) fit {} {}…{} "
                "({} points) about as well; a model is named when the next fits {:g}x worse "
                "(more points, a wider range of {}, or a steadier machine)",
                who, best.model, best.rms * 100, next.model, next.rms * 100, s.parameter, *lo, *hi,
                s.n.size(), kComplexityMargin, s.parameter));
            continue;
        }
        out.push_back(
            fmt::format("complexity: {} ~ {}: {:.3g} ns{}, rms {:.1f}% ({} {}…{}, {} points)", who,
                        best.model, best.coefficient, term == "1" ? "" : " × " + term,
                        best.rms * 100, s.parameter, *lo, *hi, s.n.size()));
    }
    return out;
}

Json ComplexityCollector::json() const {
    Json all = Json::array();
    for (const Series& s : series_) {
        Json j = Json::object();
        j["registration"] = s.registration;
        j["path"] = s.path;
        j["labels"] = labels_json(s.others);
        j["parameter"] = s.parameter;
        Json points = Json::array();
        for (std::size_t i = 0; i < s.n.size(); ++i) {
            Json p = Json::object();
            p["n"] = s.n[i];
            p["medianNs"] = s.median_ns[i];
            points.push_back(std::move(p));
        }
        j["points"] = std::move(points);
        std::string why;
        const auto fit = fit_complexity(s.n, s.median_ns, why);
        if (!fit) {
            j["model"] = Json();
            j["reason"] = why;
        } else {
            j["model"] = std::string(fit->best_fit().model);
            j["coefficientNs"] = fit->best_fit().coefficient;
            j["rms"] = fit->best_fit().rms;
            Json models = Json::object();
            for (const ModelFit& m : fit->models) {
                Json one = Json::object();
                one["coefficientNs"] = m.coefficient;
                one["rms"] = m.rms;
                models[m.model] = std::move(one);
            }
            j["models"] = std::move(models);
            j["decided"] = fit->decided();  // false: model only fits best, not kComplexityMargin
            j["runnerUp"] = std::string(fit->runner_up_fit().model);
        }
        all.push_back(std::move(j));
    }
    return all;
}

}  // namespace glint::engine
