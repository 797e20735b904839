#include "engine/runner/preflight.hpp"

#include <algorithm>
#include <numeric>

#include "catalog/selection.hpp"
#include "engine/model/typo_distance.hpp"
#include "engine/registry/params.hpp"
#include "engine/registry/registry.hpp"
#include "engine/runner/bench/grouping.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/tiers/client_metrics.hpp"

namespace glint::engine {
namespace {

std::string joined(const std::vector<std::string>& items, const std::string& separator = ", ") {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : separator) + i;
    return out;
}

}  // namespace

std::vector<std::string> closest_names(const std::string& query,
                                       const std::vector<std::string>& names, std::size_t count) {
    std::vector<std::pair<std::size_t, std::size_t>> scored;  // distance, index
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (std::any_of(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i),
                        [&](const auto& n) { return n == names[i]; }))
            continue;
        scored.emplace_back(typo_distance(query, names[i]), i);
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<std::string> out;
    for (std::size_t i = 0; i < scored.size() && i < count; ++i)
        out.push_back(names[scored[i].second]);
    return out;
}

std::optional<std::string> check_filter(const CaseRun& cases, const Discover& discover) {
    if (cases.filter.empty()) return std::nullopt;
    CaseFilter filter;
    try {
        filter = CaseFilter::parse(cases.filter);
    } catch (const FilterError& e) {
        return std::string(e.what());
    }
    // A registration's own row (its whole body or first iter) is known without running bodies.
    std::vector<std::string> names, label_terms;
    for (const auto& r : registrations()) {
        for (const auto& instance : instances(r)) {
            const Labels labels = sorted_labels(param_labels(instance));
            if (filter.selects(r.name, r.name, labels)) return std::nullopt;
        }
        names.push_back(r.name);
    }
    // The rest (bench_cases, a body's later iters, their labels) are known by running the bodies
    // (all of them, for the list of close names).
    CaseRun everything = cases;
    everything.filter.clear();
    const auto found = discover ? discover(everything) : std::nullopt;
    if (!found) return std::nullopt;  // the bodies could not be run: the run will report it
    for (const auto& c : *found) {
        if (filter.selects(c.path, c.registration, c.labels)) return std::nullopt;
        names.push_back(c.path);
        for (const auto& [k, v] : c.labels) label_terms.push_back(k + "=" + v);
    }
    // Close names for each term that selects something on its own: names for name terms,
    // key=value for label terms, closest first.
    std::vector<std::pair<std::size_t, std::string>> scored;
    bool wildcard = false;
    for (const std::string& term : filter_terms(cases.filter)) {
        if (term.empty() || term.front() == '-') continue;
        wildcard = wildcard || term.find_first_of("*?[") != std::string::npos;
        const std::size_t eq = term.find('=');
        const auto& pool = eq == std::string::npos || term.find('[') < eq ? names : label_terms;
        for (const auto& name : closest_names(term, pool, 3))
            scored.emplace_back(typo_distance(term, name), name);
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<std::string> close;
    for (const auto& [distance, name] : scored)
        if (close.size() < 3 && std::find(close.begin(), close.end(), name) == close.end())
            close.push_back(name);
    std::string message = "--filter: '" + cases.filter + "' selects no case";
    if (names.empty()) return message + " (no case is registered)";
    if (!close.empty()) message += "; closest names: " + joined(close);
    if (!wildcard)
        message +=
            " (terms match names as --list prints them, whole or up to a '/', '#', ' [' or ',': "
            "'*part*' matches a substring)";
    return message;
}

std::optional<std::string> sort_column_problem(
    const TableLayout& table, const std::vector<catalog::MetricDescriptor>& catalog,
    const std::vector<std::string>& selection) {
    const std::string& column = table.sort_by;
    std::vector<std::string> columns = {"name", "n", "median", "mad", "min", "max"};
    std::vector<std::string> shown;  // the metric columns the tables show
    for (const auto& d : catalog::select_metrics(catalog, selection).visible)
        shown.push_back(d.name);
    columns.insert(columns.end(), shown.begin(), shown.end());
    if (std::find(columns.begin(), columns.end(), column) != columns.end()) return std::nullopt;
    const std::string message = "--sort-by: '" + column + "' ";
    const std::string listed = "this run's columns: " + joined(columns);
    const auto metric =
        std::find_if(catalog.begin(), catalog.end(),
                     [&](const catalog::MetricDescriptor& d) { return d.name == column; });
    if (metric != catalog.end() && !metric->available)
        return message + "is not measured in this run: " + metric->reason + "; " + listed;
    if (metric != catalog.end()) {
        shown.push_back(column);
        return message + "is measured but not shown: --metrics=" + joined(shown, ",") +
               " shows it beside this run's columns";
    }
    // Close: at most one typo in a short name, two in a longer one (as for unknown flags).
    const std::size_t most = column.size() <= 4 ? 1 : 2;
    std::vector<std::string> close;
    for (const auto& name : closest_names(column, columns, 3))
        if (typo_distance(column, name) <= most)
            close.push_back("--sort-by=" + std::string(table.sort_descending ? "-" : "") + name);
    return message + "is not a column of this run" +
           (close.empty() ? "" : "; did you mean " + joined(close, " or ") + "?") + " (" + listed +
           ")";
}

std::optional<std::string> check_table_keys(const CaseRun& selected, const Measuring& measuring,
                                            const TableLayout& table,
                                            const std::vector<catalog::MetricDescriptor>& catalog,
                                            const std::vector<std::string>& selection,
                                            const Discover& discover) {
    std::optional<std::vector<DiscoveredCase>> found;
    bool discovered = false;
    auto cases = [&]() -> const std::optional<std::vector<DiscoveredCase>>& {
        if (!discovered && discover) found = discover(selected);
        discovered = true;
        return found;
    };
    if (!table.sort_by.empty()) {
        // The run's columns: the tiers' and the baseline's, and the client metrics of the cases
        // (of every registration first; of the selected cases, found by running the bodies,
        // when that does not settle it).
        std::vector<catalog::MetricDescriptor> known = catalog;
        for (const auto& r : registrations()) merge_client_family(known, r.metrics);
        auto problem = sort_column_problem(table, known, selection);
        if (problem && cases()) {
            known = catalog;
            for (const auto& c : *cases()) merge_client_family(known, c.metrics);
            problem = sort_column_problem(table, known, selection);
        }
        if (problem) return problem;
    }
    if (!measuring.group_by.empty() && cases()) {  // every row's labels, parameters' included
        std::vector<const Labels*> labels;
        for (const auto& c : *cases()) labels.push_back(&c.labels);
        const auto keys = label_keys(labels);
        for (const auto& k : measuring.group_by)
            if (std::find(keys.begin(), keys.end(), k) == keys.end())
                return "--group-by: no selected case has a label '" + k + "' (" +
                       (keys.empty() ? std::string("they have no labels")
                                     : "keys: " + joined(keys)) +
                       "); --group-by=list lists the keys and their values";
    }
    return std::nullopt;
}

}  // namespace glint::engine
