#include "engine/gbench/complexity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "engine/stats/complexity.hpp"
#include "engine/stats/summary.hpp"

namespace glint::gbench {
namespace {

std::map<std::string, std::int64_t> g_complexity_n;

// A BigO's index among engine/stats/complexity.hpp's models, and Google Benchmark's name of it.
struct Law {
    benchmark::BigO big_o;
    std::size_t model;
    const char* gb_name;
};
constexpr Law kLaws[] = {{benchmark::o1, 0, "(1)"},        {benchmark::oLogN, 1, "lgN"},
                         {benchmark::oN, 2, "N"},          {benchmark::oNLogN, 3, "NlgN"},
                         {benchmark::oNSquared, 4, "N^2"}, {benchmark::oNCubed, 5, "N^3"}};

const Law& law_of_model(std::size_t model) {
    return *std::find_if(std::begin(kLaws), std::end(kLaws),
                         [&](const Law& l) { return l.model == model; });
}

struct Series {
    const Instance* first = nullptr;
    std::vector<double> n, real_ns, cpu_ns;
    std::string last_instance;
};

double unit_ns(const std::string& unit) {
    return unit == "us" ? 1e3 : unit == "ms" ? 1e6 : unit == "s" ? 1e9 : 1.0;
}

}  // namespace

void record_complexity_n(const std::string& name, std::int64_t n) { g_complexity_n[name] = n; }

bool wants_complexity(const std::vector<Instance>& selected) {
    return std::any_of(selected.begin(), selected.end(), [](const Instance& in) {
        return in.family->benchmark->spec().complexity != benchmark::oNone;
    });
}

ComplexityReport fit_families(const std::vector<Instance>& selected,
                              const std::string& glint_document, const std::string& gbench_json) {
    const nlohmann::json doc = nlohmann::json::parse(glint_document);
    std::map<std::string, const nlohmann::json*> rows;
    for (const auto& row : doc.at("rows"))
        if (row.contains("registration") && !row.contains("error") &&
            row.value("medianNs", nlohmann::json()).is_number())
            rows[row["registration"].get<std::string>()] = &row;
    std::map<int, Series> families;  // by family index, in order
    for (const Instance& in : selected) {
        if (in.family->benchmark->spec().complexity == benchmark::oNone) continue;
        Series& s = families[in.family_index];
        if (!s.first) s.first = &in;
        const auto row = rows.find(in.name);
        if (row == rows.end()) continue;  // an error row, or not measured
        const auto given = g_complexity_n.find(in.name);
        const double n = given != g_complexity_n.end() && given->second > 0
                             ? static_cast<double>(given->second)
                         : in.args.empty() ? 0.0
                                           : static_cast<double>(in.args.front());
        std::vector<double> cpu;
        for (const auto& v : row->second->value("samplesCpuNs", nlohmann::json::array()))
            if (v.is_number()) cpu.push_back(v.get<double>());
        s.n.push_back(n);
        s.real_ns.push_back((*row->second)["medianNs"].get<double>());
        s.cpu_ns.push_back(cpu.empty() ? s.real_ns.back() : engine::median(cpu));
        s.last_instance = in.name;
    }
    ComplexityReport report;
    nlohmann::ordered_json gb =
        gbench_json.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json::parse(gbench_json);
    for (const auto& [index, s] : families) {
        const auto& spec = s.first->family->benchmark->spec();
        const std::string family = spec.name;
        std::string why;
        const auto real = engine::fit_complexity(s.n, s.real_ns, why);
        const auto cpu = engine::fit_complexity(s.n, s.cpu_ns, why);
        if (!real || !cpu) {
            report.lines.push_back(fmt::format("complexity: {}: no fit over N: {}", family, why));
            continue;
        }
        const bool automatic = spec.complexity == benchmark::oAuto;
        const std::size_t model =
            automatic ? real->best
                      : std::find_if(std::begin(kLaws), std::end(kLaws), [&](const Law& l) {
                            return l.big_o == spec.complexity;
                        })->model;
        const engine::ModelFit& fit = real->models[model];
        const auto [lo, hi] = std::minmax_element(s.n.begin(), s.n.end());
        const bool undecided = automatic && !real->decided();
        if (undecided)
            report.lines.push_back(fmt::format(
                "complexity: {} undecided: {} (rms {:.1f}%) and {} (rms {:.1f}%) fit N {}…{} ({} "
                "points) about as well; a model is named when the next fits {:g}x worse",
                family, fit.model, fit.rms * 100, real->runner_up_fit().model,
                real->runner_up_fit().rms * 100, *lo, *hi, s.n.size(), engine::kComplexityMargin));
        else
            report.lines.push_back(fmt::format(
                "complexity: {} ~ {}{}: {:.3g} ns × {}, rms {:.1f}% (N {}…{}, {} points)", family,
                fit.model, automatic ? "" : " (as Complexity() named it)", fit.coefficient,
                engine::model_term(fit.model, "N"), fit.rms * 100, *lo, *hi, s.n.size()));
        if (gb.is_null()) continue;
        auto& benchmarks = gb["benchmarks"];
        auto last = benchmarks.end();
        for (auto it = benchmarks.begin(); it != benchmarks.end(); ++it)
            if (it->value("run_name", "") == s.last_instance) last = it;
        if (last == benchmarks.end()) continue;
        const std::string unit = last->value("time_unit", "ns");
        nlohmann::ordered_json big_o, rms;
        for (auto* row : {&big_o, &rms}) {
            (*row)["name"] = family + (row == &big_o ? "_BigO" : "_RMS");
            (*row)["family_index"] = index;
            (*row)["per_family_instance_index"] = 0;
            (*row)["run_name"] = family;
            (*row)["run_type"] = "aggregate";
            (*row)["repetitions"] = 1;
            (*row)["threads"] = s.first->threads;
            (*row)["aggregate_name"] = row == &big_o ? "BigO" : "RMS";
            (*row)["aggregate_unit"] = row == &big_o ? "time" : "percentage";
        }
        big_o["cpu_coefficient"] = cpu->models[model].coefficient / unit_ns(unit);
        big_o["real_coefficient"] = fit.coefficient / unit_ns(unit);
        big_o["big_o"] = law_of_model(model).gb_name;
        big_o["time_unit"] = unit;
        big_o["glint_fit"] = "relative residuals (docs/writing-benchmarks.md)";
        if (automatic) big_o["glint_decided"] = !undecided;
        rms["rms"] = fit.rms;
        const auto at = benchmarks.insert(last + 1, big_o);
        benchmarks.insert(at + 1, rms);
    }
    if (!gb.is_null()) report.gbench_json = gb.dump(2) + "\n";
    return report;
}

}  // namespace glint::gbench
