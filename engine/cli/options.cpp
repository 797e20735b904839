#include "engine/cli/options.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/cli/flag_hints.hpp"
#include "engine/cli/option_table.hpp"

namespace glint::engine {
namespace {

std::string given_twice(const OptionRow& row, std::string_view first, std::string_view second) {
    const std::string flag(row.flag);
    std::string message = flag + " given twice ('" + std::string(first) + "' and '" +
                          std::string(second) + "'): give it once";
    if (row.shown.find(",...") != std::string_view::npos)
        message += "; several terms go in one " + flag + "=" + std::string(first) + "," +
                   std::string(second);
    return message;
}

}  // namespace

Options parse_options(std::span<const char* const> args) {
    Options o;
    std::vector<std::pair<const OptionRow*, std::string_view>> valued;  // each flag's first value
    for (const char* raw : args) {
        std::string_view arg(raw);
        std::string_view name = arg;
        std::string_view value;
        bool has_value = false;
        if (auto eq = arg.find('='); eq != std::string_view::npos) {
            name = arg.substr(0, eq);
            value = arg.substr(eq + 1);
            has_value = true;
        }
        o.given.emplace_back(name);
        const OptionRow* row = find_option(name);
        if (!row) throw UsageError(unknown_flag_message(arg));
        if (row->takes == Takes::value && (!has_value || value.empty()))
            throw UsageError(std::string(name) + ": needs a value: " + std::string(name) + "=" +
                             std::string(row->form));
        if (row->takes == Takes::nothing && has_value)
            throw UsageError(std::string(name) + ": takes no value");
        if (has_value && !row->repeatable && row->takes != Takes::anything) {
            auto first = std::find_if(valued.begin(), valued.end(),
                                      [&](const auto& v) { return v.first == row; });
            if (first != valued.end()) throw UsageError(given_twice(*row, first->second, value));
            valued.emplace_back(row, value);
        }
        row->store(o, name, value, has_value);
    }
    if (!o.list && std::find(o.given.begin(), o.given.end(), "--format") != o.given.end())
        throw UsageError("--format: applies to --list only: --list --format=json");
    return o;
}

TierRequest tier_request(const Options& o) {
    TierRequest r;
    r.metrics = o.metrics;
    r.every_tier = o.list_metrics;
    r.perf = PerfRequest{o.perf || o.perf_scaled || o.perf_read != PerfRead::automatic,
                         o.perf_scaled, o.perf_inherit, o.perf_read};
    r.syscalls = SyscallRequest{o.syscalls_total, o.syscalls};
    r.per_iteration = PerIterationRequest{o.per_iteration, o.histogram};
    r.sizing = PassSizing{o.perf_iters, o.perf_batch};
    r.profile = o.profile;
    r.simulate = SimulateRequest{o.simulate};
    return r;
}

PlacementRequest placement_request(const Options& o) {
    PlacementRequest r;
    if (o.pin_auto) r.pin = PlacementRequest::Pin::automatic;
    if (o.pin_cpu) {
        r.pin = PlacementRequest::Pin::cpu;
        r.cpu = *o.pin_cpu;
    }
    r.numa_node = o.numa_node;
    return r;
}

}  // namespace glint::engine
