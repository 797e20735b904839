#include "engine/tiers/syscalls/syscall_names.hpp"

#include <algorithm>
#include <string_view>

#include "catalog/glob.hpp"

namespace glint::engine::syscalls {
namespace {

bool valid_name(std::string_view name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    });
}

// sc:<name> selectors of --metrics that are names, not globs.
std::vector<std::string> selected_names(const Options& options) {
    std::vector<std::string> names;
    for (const auto& s : options.metrics) {
        if (!std::string_view(s).starts_with(kColumnPrefix) || catalog::has_glob_chars(s)) continue;
        names.push_back(s.substr(std::string_view(kColumnPrefix).size()));
    }
    return names;
}

}  // namespace

std::vector<std::string> requested_syscalls(const Options& options) {
    std::vector<std::string> names;
    auto add = [&](const std::string& n) {
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    };
    for (const auto& n : options.syscalls) add(n);
    for (const auto& n : selected_names(options)) add(n);
    return names;
}

bool syscall_columns_named(const Options& options) {
    if (options.syscalls_total || !selected_names(options).empty()) return true;
    return std::find(options.metrics.begin(), options.metrics.end(), kTotalColumn) !=
           options.metrics.end();
}

std::optional<std::string> check_syscall_names(const Options& options) {
    for (const auto& n : options.syscalls)
        if (!valid_name(n))
            return "--syscalls: '" + n +
                   "' is not a system call name (letters, digits and '_', as in "
                   "--syscalls=futex,read)";
    for (const auto& n : selected_names(options))
        if (!valid_name(n))
            return "--metrics selector '" + std::string(kColumnPrefix) + n +
                   "': not a system call name (letters, digits and '_', as in sc:futex)";
    const std::size_t count = requested_syscalls(options).size();
    if (count > kMaxNamed)
        return "--syscalls/--metrics name " + std::to_string(count) +
               " system calls; at most " + std::to_string(kMaxNamed) +
               " fit one tracepoint group";
    return std::nullopt;
}

std::string selector_family_line() {
    return "sc:NAME                    one system call's tracepoint count per iteration "
           "(--syscalls=NAME,... or --metrics=sc:NAME; the total is \"syscalls\")";
}

std::vector<std::string> syscall_flag_selectors(
    const Options& options, const std::vector<catalog::MetricDescriptor>& catalog) {
    std::vector<std::string> names;
    if (options.metrics.empty() || !options.syscalls_total) return names;
    for (const auto& d : catalog) {
        if (d.source != "syscall" || !d.is_default) continue;  // default: the tier opened
        const bool flagged = d.name == kTotalColumn ||
                             std::find(options.syscalls.begin(), options.syscalls.end(),
                                       d.name.substr(std::string_view(kColumnPrefix).size())) !=
                                 options.syscalls.end();
        if (flagged) names.push_back(d.name);
    }
    return names;
}

}  // namespace glint::engine::syscalls
