#include "engine/model/unstable_codes.hpp"

#include <utility>

namespace glint::engine {
namespace {

// Short, and readable without the legend where possible.
constexpr std::pair<std::string_view, std::string_view> kCodes[] = {
    {"cpu-time", "cpu"},  {"disturbed", "dist"}, {"split", "split"}, {"spread", "spread"}, {"migrated", "mig"},
    {"preempted", "pre"}, {"run-delay", "delay"}, {"steal", "steal"}, {"timer-resolution", "timer"}};

}  // namespace

std::string_view unstable_code(std::string_view reason) {
    for (const auto& [name, code] : kCodes)
        if (name == reason) return code;
    return reason;
}

std::string code_of_reason(std::string_view reason) {
    const std::string_view code = unstable_code(reason);
    return code == reason ? std::string(reason) : std::string(code) + " = " + std::string(reason);
}

std::vector<std::string_view> shown_codes(const std::vector<std::string>& reasons) {
    std::vector<std::string_view> codes;
    for (std::size_t i = 0; i < reasons.size() && i < kShownCodes; ++i) codes.push_back(unstable_code(reasons[i]));
    return codes;
}

std::string unstable_cell(const std::vector<std::string>& reasons) {
    std::string cell;
    for (const auto code : shown_codes(reasons)) cell += (cell.empty() ? "" : ",") + std::string(code);
    if (reasons.size() > kShownCodes) cell += "+" + std::to_string(reasons.size() - kShownCodes);
    return cell;
}

}  // namespace glint::engine
