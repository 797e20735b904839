#include "engine/model/unstable_codes.hpp"

#include <utility>

namespace glint::engine {
namespace {

// Short, and readable without the legend where possible.
constexpr std::pair<std::string_view, std::string_view> kCodes[] = {
    {"cpu-time", "cpu"},    {"disturbed", "dist"}, {"split", "split"},
    {"spread", "spread"},   {"migrated", "mig"},   {"preempted", "pre"},
    {"run-delay", "delay"}, {"steal", "steal"},    {"timer-resolution", "timer"}};

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

std::string unstable_cell(const std::vector<std::string>& reasons, std::string_view separator) {
    std::string cell;
    for (const auto& reason : reasons) {
        if (!cell.empty()) cell += separator;
        cell += unstable_code(reason);
    }
    return cell;
}

}  // namespace glint::engine
