#include "engine/report/sort.hpp"

#include <algorithm>
#include <cmath>

namespace glint::engine::report {

namespace {

double numeric_key(const Row& row, const std::string& column) {
    if (!row.timing) return std::nan("");
    const TimingSummary& t = *row.timing;
    if (column == "n")
        return static_cast<double>(t.samples) * static_cast<double>(t.iterations_per_sample);
    if (column == "median") return t.median_ns;
    if (column == "mad") return t.mad_ns;
    if (column == "min") return t.min_ns;
    if (column == "max") return t.max_ns;
    const catalog::MetricCell* cell = row.cell(column);
    return cell ? cell->value : std::nan("");
}

// -1: a first, 1: b first, 0: tie. NaN (no value) after every number, in both directions.
int compare_numbers(double a, double b, bool descending) {
    bool a_missing = std::isnan(a);
    bool b_missing = std::isnan(b);
    if (a_missing || b_missing) return a_missing == b_missing ? 0 : (a_missing ? 1 : -1);
    if (a == b) return 0;
    bool a_first = descending ? a > b : a < b;
    return a_first ? -1 : 1;
}

}  // namespace

std::vector<Row> sorted_rows(std::vector<Row> rows, const SortSpec& sort) {
    if (sort.column.empty()) return rows;  // measurement order, error rows included
    auto before = [&](const Row& a, const Row& b) {
        if (a.is_error() != b.is_error()) return b.is_error();
        if (a.is_error()) return false;
        if (sort.column == "name") return sort.descending ? b.name < a.name : a.name < b.name;
        return compare_numbers(numeric_key(a, sort.column), numeric_key(b, sort.column),
                               sort.descending) < 0;
    };
    std::stable_sort(rows.begin(), rows.end(), before);
    return rows;
}

}  // namespace glint::engine::report
