#include "engine/stability/unstable_legend.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "engine/model/unstable_codes.hpp"

namespace glint::engine {
namespace {

const std::vector<std::string>& reasons_of(const Row& row) {
    static const std::vector<std::string> none;
    return row.stability && !row.is_error() ? row.stability->unstable : none;
}

std::string rows_text(std::size_t n) { return fmt::format("{} row{}", n, n == 1 ? "" : "s"); }

}  // namespace

std::vector<std::string> unstable_legend(const std::vector<Row>& rows,
                                         const StabilityThresholds& limits,
                                         const RemedyContext& done) {
    // Every reason shown, in the verdict's order, then any this build does not know.
    std::vector<std::string> shown;
    for (const auto& row : rows)
        for (const auto& reason : reasons_of(row))
            if (std::find(shown.begin(), shown.end(), reason) == shown.end())
                shown.push_back(reason);
    if (shown.empty()) return {};
    const auto& order = unstable_reason_codes();
    const auto rank = [&](const std::string& r) {
        return std::find(order.begin(), order.end(), r) - order.begin();
    };
    std::stable_sort(shown.begin(), shown.end(),
                     [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    std::size_t width = 0;  // of the codes (ASCII)
    for (const auto& reason : shown) width = std::max(width, unstable_code(reason).size());
    std::vector<std::string> lines = {
        "~ unstable: each row's reasons as codes (every reason: JSON rows[].unstable)"};
    for (const auto& reason : shown) {
        const auto n = std::count_if(rows.begin(), rows.end(), [&](const Row& row) {
            const auto& reasons = reasons_of(row);
            return std::find(reasons.begin(), reasons.end(), reason) != reasons.end();
        });
        const std::string remedy = reason_remedy(reason, done, limits.min_timer_steps);
        lines.push_back(fmt::format(
            "~{:<{}}  {} ({}, {}){}", unstable_code(reason), width, describe_reason(reason, limits),
            reason, rows_text(static_cast<std::size_t>(n)), remedy.empty() ? "" : " · " + remedy));
    }
    return lines;
}

}  // namespace glint::engine
