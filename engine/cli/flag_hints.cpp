#include "engine/cli/flag_hints.hpp"

#include <algorithm>
#include <vector>

#include "engine/cli/option_table.hpp"
#include "engine/model/typo_distance.hpp"

namespace glint::engine {
namespace {

using SV = std::string_view;

constexpr BenchmarkFlagHint kBenchmarkFlags[] = {
    {"--benchmark_filter", "--filter=V (a glob: * and ?, not a regex)"},
    {"--benchmark_repetitions", "--bench-repeat=V (interleaved)"},
    {"--benchmark_enable_random_interleaving",
     "--bench-repeat=N (repetitions are always interleaved)"},
    {"--benchmark_min_time", "--bench-min-time=MS (milliseconds per sample)"},
    {"--benchmark_out", "--bench-json=V"},
    {"--benchmark_list_tests", "--list"},
    {"--benchmark_perf_counters", "--perf (or --metrics=LIST)"},
};

std::string with_value(SV ours, SV value) {
    std::string out(ours);
    if (auto v = out.find("=V"); v != std::string::npos)
        out.replace(v + 1, 1, value.empty() ? "VALUE" : value);
    return out;
}

std::string benchmark_hint(SV name, SV value) {
    const std::string head = "unknown flag '" + std::string(name) + "' (a Google Benchmark flag): ";
    if (name == "--benchmark_format" || name == "--benchmark_out_format") {
        if (value == "json")
            return head + "glint's is --bench-json=FILE (- for the standard output)";
        if (value == "csv") return head + "glint's is --bench-format=csv";
        if (value == "console") return head + "glint's table is the default (--bench-format=box)";
        return head + "glint writes --bench-json=FILE or --bench-format=box|md|csv";
    }
    for (const BenchmarkFlagHint& f : kBenchmarkFlags)
        if (f.name == name) return head + "glint's is " + with_value(f.ours, value);
    return head + "glint has no equivalent; see --help";
}

}  // namespace

std::span<const BenchmarkFlagHint> benchmark_flag_hints() { return kBenchmarkFlags; }

std::string unknown_flag_message(SV arg) {
    const std::size_t eq = arg.find('=');
    const SV name = arg.substr(0, eq);
    const SV value = eq == SV::npos ? SV{} : arg.substr(eq + 1);
    if (name.starts_with("--benchmark_")) return benchmark_hint(name, value);

    std::string message = "unknown flag '" + std::string(arg) + "'";
    // Close: at most one edit in a short word, two in a longer one, or the tail of a flag
    // (--json is --bench-json's last word).
    const SV word = name.substr(std::min(name.find_first_not_of('-'), name.size()));
    const std::size_t most = word.size() <= 4 ? 1 : 2;
    std::vector<std::pair<std::size_t, const OptionRow*>> close;
    for (const OptionRow& row : option_rows()) {
        if (row.hidden) continue;
        const SV flag = row.flag.substr(2);
        const std::size_t d = typo_distance(word, flag);
        const bool tail = word.size() >= 4 && flag.size() > word.size() && flag.ends_with(word) &&
                          flag[flag.size() - word.size() - 1] == '-';
        if (!word.empty() && (d <= most || tail)) close.emplace_back(tail ? most : d, &row);
    }
    std::stable_sort(close.begin(), close.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    if (close.size() > 3) close.resize(3);
    for (std::size_t i = 0; i < close.size(); ++i) {
        message += i == 0 ? "; did you mean " : i + 1 == close.size() ? " or " : ", ";
        const OptionRow& row = *close[i].second;
        const bool keeps_value = !value.empty() && row.takes != Takes::nothing;
        message += row.flag;
        if (keeps_value) message.append("=").append(value);
    }
    if (!close.empty()) message += "?";
    return message + "; see --help";
}

}  // namespace glint::engine
