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
std::vector<std::string> selected_names(const TierRequest& request) {
    std::vector<std::string> names;
    for (const auto& s : request.metrics) {
        if (!std::string_view(s).starts_with(kColumnPrefix) || catalog::has_glob_chars(s)) continue;
        names.push_back(s.substr(std::string_view(kColumnPrefix).size()));
    }
    return names;
}

}  // namespace

std::vector<std::string> requested_syscalls(const TierRequest& request) {
    std::vector<std::string> names;
    auto add = [&](const std::string& n) {
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    };
    for (const auto& n : request.syscalls.names) add(n);
    for (const auto& n : selected_names(request)) add(n);
    return names;
}

bool syscall_columns_named(const TierRequest& request) {
    if (request.syscalls.total || !selected_names(request).empty()) return true;
    return std::find(request.metrics.begin(), request.metrics.end(), kTotalColumn) !=
           request.metrics.end();
}

std::optional<std::string> check_syscall_names(const TierRequest& request) {
    for (const auto& n : request.syscalls.names)
        if (!valid_name(n))
            return "--syscalls: '" + n +
                   "' is not a system call name (letters, digits and '_', as in "
                   "--syscalls=futex,read)";
    for (const auto& n : selected_names(request))
        if (!valid_name(n))
            return "--metrics selector '" + std::string(kColumnPrefix) + n +
                   "': not a system call name (letters, digits and '_', as in sc:futex)";
    const std::size_t count = requested_syscalls(request).size();
    if (count > kMaxNamed)
        return "--syscalls/--metrics name " + std::to_string(count) + " system calls; at most " +
               std::to_string(kMaxNamed) + " fit one tracepoint group";
    return std::nullopt;
}

std::string selector_family_line() {
    return "sc:NAME                    one system call's tracepoint count per iteration "
           "(--syscalls=NAME,... or --metrics=sc:NAME; the total is \"syscalls\")";
}

std::vector<std::string> syscall_flag_selectors(
    const TierRequest& request, const std::vector<catalog::MetricDescriptor>& catalog) {
    std::vector<std::string> names;
    if (request.metrics.empty() || !request.syscalls.total) return names;
    for (const auto& d : catalog) {
        if (d.source != "syscall" || !d.is_default) continue;  // default: the tier opened
        const bool flagged = d.name == kTotalColumn ||
                             std::find(request.syscalls.names.begin(), request.syscalls.names.end(),
                                       d.name.substr(std::string_view(kColumnPrefix).size())) !=
                                 request.syscalls.names.end();
        if (flagged) names.push_back(d.name);
    }
    return names;
}

}  // namespace glint::engine::syscalls
