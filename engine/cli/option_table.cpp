#include "engine/cli/option_table.hpp"

#include <algorithm>
#include <vector>

#include "engine/cli/option_rows.hpp"

namespace glint::engine {
namespace {

std::string escaped_cell(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '|') out += '\\';
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

}  // namespace

std::span<const OptionRow> option_rows() {
    static const std::vector<OptionRow> rows = [] {
        std::vector<OptionRow> all;
        for (auto group :
             {run_option_rows(), output_option_rows(), counting_option_rows(), about_option_rows()})
            all.insert(all.end(), group.begin(), group.end());
        return all;
    }();
    return rows;
}

const OptionRow* find_option(std::string_view flag) {
    if (flag == "-h") flag = "--help";
    for (const OptionRow& row : option_rows())
        if (row.flag == flag) return &row;
    return nullptr;
}

std::string help_text() {
    std::string out =
        "usage: <bench binary> [flags]\n\nWithout --bench every case runs once as a plain test "
        "(exit 1 "
        "if any fails).\n\n";
    for (const OptionRow& row : option_rows()) {
        if (row.hidden) continue;
        std::string head = "  " + std::string(row.flag) + std::string(row.shown);
        head.resize(std::max(head.size() + 1, std::size_t{27}), ' ');
        std::string_view help = row.help;
        for (std::size_t end; (end = help.find('\n')) != std::string_view::npos;
             help.remove_prefix(end + 1)) {
            out += head + std::string(help.substr(0, end)) + "\n";
            head = std::string(27, ' ');
        }
        out += head + std::string(help) + "\n";
    }
    return out;
}

std::string flags_markdown() {
    std::string out =
        "# Flags\n\nEvery flag of a glint bench binary. Generated from the option table "
        "(`engine/cli/option_table.cpp`) by `<bench binary> --help-markdown > docs/flags.md`; a "
        "unit test "
        "fails when this file, `--help`, the parser or the JSON knobs disagree with the table.\n\n"
        "Without `--bench` a flag marked *bench* has no effect, and one marked *counting* counts "
        "only in the "
        "informational modes (`--list-metrics`, `--capabilities`, `--group-by=list`); glint notes "
        "either on "
        "stderr.\n\n| flag | meaning | without `--bench` | JSON `meta.knobs` "
        "|\n|---|---|---|---|\n";
    for (const OptionRow& row : option_rows()) {
        if (row.hidden) continue;
        out += "| `" + escaped_cell(std::string(row.flag) + std::string(row.shown)) + "` | " +
               escaped_cell(row.help) + " | " +
               (row.scope == Scope::bench      ? "bench"
                : row.scope == Scope::counting ? "counting"
                                               : "") +
               " | " +
               (row.knob.empty() ? std::string() : std::string("`").append(row.knob).append("`")) +
               " |\n";
    }
    return out;
}

Json recorded_knobs(const Options& options) {
    Json knobs = Json::object();
    for (const OptionRow& row : option_rows())
        if (!row.knob.empty() && row.recorded) knobs[std::string(row.knob)] = row.recorded(options);
    knobs["samples"] = 32;  // the protocol's fixed sample count (engine/timing/protocol.hpp)
    return knobs;
}

}  // namespace glint::engine
