// Google Benchmark's flags on a drop-in program, and its filter.
#include <regex>
#include <stdexcept>
#include <string_view>

#include "engine/gbench/dropin.hpp"

namespace glint::gbench {
namespace {

// "--benchmark_x=v", "-benchmark_x=v" or a bare bool "--benchmark_x": the value, or nullopt.
std::optional<std::string> value_of(std::string_view arg, std::string_view flag, bool is_bool) {
    if (arg.substr(0, 2) == "--") arg.remove_prefix(2);
    else if (arg.substr(0, 1) == "-") arg.remove_prefix(1);
    else return std::nullopt;
    if (arg.substr(0, flag.size()) != flag) return std::nullopt;
    arg.remove_prefix(flag.size());
    if (arg.empty()) return is_bool ? std::optional<std::string>("true") : std::nullopt;
    if (arg.front() != '=') return std::nullopt;
    return std::string(arg.substr(1));
}

bool truthy(const std::string& v) {
    return v == "true" || v == "1" || v == "yes" || v == "t" || v == "y" || v == "on";
}

void parse_min_time(const std::string& v, Flags& f) {
    try {
        std::size_t used = 0;
        if (!v.empty() && v.back() == 'x') {
            const long long n = std::stoll(v.substr(0, v.size() - 1), &used);
            if (used + 1 != v.size() || n <= 0) throw std::invalid_argument(v);
            f.min_iterations = static_cast<std::uint64_t>(n);
            return;
        }
        const std::string t = !v.empty() && v.back() == 's' ? v.substr(0, v.size() - 1) : v;
        const double s = std::stod(t, &used);
        if (used != t.size() || !(s > 0)) throw std::invalid_argument(v);
        f.min_seconds = s;
    } catch (const std::exception&) {
        f.error =
            "--benchmark_min_time=" + v + ": expected seconds (0.5, 0.5s) or iterations (100x)";
    }
}

}  // namespace

Flags parse_flags(int argc, char** argv) {
    Flags f;
    if (argc > 0) f.kept.emplace_back(argv[0]), f.kept_argv.push_back(0);
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto take = [&](const char* flag, bool is_bool, auto&& apply) {
            const std::optional<std::string> v = value_of(a, flag, is_bool);
            if (v) apply(*v);
            return v.has_value();
        };
        auto set = [](std::string& field) { return [&field](const std::string& v) { field = v; }; };
        auto accept = [](const std::string&) {};
        auto repetitions = [&f](const std::string& v) {
            try {
                f.repetitions = std::stoi(v);
            } catch (const std::exception&) {
                f.error = "--benchmark_repetitions=" + v + ": expected a count";
            }
        };
        const bool gbench =
            take("benchmark_filter", false, set(f.filter)) ||
            take("benchmark_list_tests", true,
                 [&f](const std::string& v) { f.list_tests = truthy(v); }) ||
            take("benchmark_dry_run", true,
                 [&f](const std::string& v) { f.dry_run = truthy(v); }) ||
            take("benchmark_min_time", false,
                 [&f](const std::string& v) { parse_min_time(v, f); }) ||
            take("benchmark_repetitions", false, repetitions) ||
            take("benchmark_format", false, set(f.format)) ||
            take("benchmark_out_format", false, set(f.out_format)) ||
            take("benchmark_out", false, set(f.out)) ||
            take("benchmark_time_unit", false, set(f.time_unit)) ||
            // Accepted: glint's tables always have metric columns, its repetitions are always
            // interleaved, and it warms up by doubling iterations before it samples.
            take("benchmark_counters_tabular", true, accept) ||
            take("benchmark_color", true, accept) ||
            take("benchmark_display_aggregates_only", true, accept) ||
            take("benchmark_report_aggregates_only", true, accept) ||
            take("benchmark_enable_random_interleaving", true, accept) ||
            take("benchmark_min_warmup_time", false, accept);
        if (!gbench) f.kept.emplace_back(a), f.kept_argv.push_back(i);
    }
    for (const auto& [flag, value, allowed] :
         {std::tuple<const char*, std::string, const char*>{"--benchmark_format", f.format,
                                                            "console|json|csv"},
          {"--benchmark_out_format", f.out_format, "json"},
          {"--benchmark_time_unit", f.time_unit, "ns|us|ms|s"}}) {
        const std::string list = std::string("|") + allowed + "|";
        if (!value.empty() && list.find("|" + value + "|") == std::string::npos && f.error.empty())
            f.error = std::string(flag) + "=" + value + ": expected " + allowed +
                      (std::string(flag) == "--benchmark_out_format"
                           ? " (glint's drop-in writes Google Benchmark's JSON; glint's CSV: "
                             "--bench-format=csv)"
                           : "");
    }
    return f;
}

std::vector<Instance> select(std::vector<Instance> all, const std::string& filter) {
    std::string spec = filter.empty() || filter == "all" ? std::string(".") : filter;
    const bool negative = spec.front() == '-';
    if (negative) spec.erase(0, 1);
    std::regex re;
    try {
        re = std::regex(spec, std::regex::extended);
    } catch (const std::regex_error& e) {
        throw std::invalid_argument("--benchmark_filter=" + filter +
                                    ": not an extended regular expression (" + e.what() + ")");
    }
    // Numbered as Google Benchmark numbers what it runs: families with a selected instance.
    std::vector<Instance> out;
    int family = -1, last = -1;
    for (Instance& in : all) {
        if (std::regex_search(in.name, re) == negative) continue;
        if (in.family_index != last) ++family, last = in.family_index;
        const bool same = !out.empty() && out.back().family_index == family;
        in.per_family_index = same ? out.back().per_family_index + 1 : 0;
        in.family_index = family;
        out.push_back(std::move(in));
    }
    return out;
}

}  // namespace glint::gbench
