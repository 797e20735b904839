#include "engine/tiers/simulated/callgrind_dump.hpp"

#include <charconv>
#include <cmath>

#include "engine/model/not_measured.hpp"

namespace glint::engine::simulated {
namespace {

std::vector<std::string_view> words(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
        if (i > start) out.push_back(text.substr(start, i - start));
    }
    return out;
}

bool starts(std::string_view line, std::string_view prefix) {
    return line.substr(0, prefix.size()) == prefix;
}

}  // namespace

double Dump::value(std::string_view event) const {
    for (std::size_t i = 0; i < events.size(); ++i)
        if (events[i] == event) return i < summary.size() ? summary[i] : 0.0;
    return kNan;
}

std::optional<Dump> parse_dump(std::string_view text, std::string& why) {
    Dump dump;
    bool has_summary = false;
    std::vector<std::string_view> values;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        if (starts(line, "events:") && dump.events.empty()) {
            for (auto w : words(line.substr(7))) dump.events.emplace_back(w);
        } else if (starts(line, "summary:")) {
            values = words(line.substr(8));
            has_summary = true;
        } else if (starts(line, "desc: Trigger: Client Request: ")) {
            dump.trigger = std::string(line.substr(31));
        }
    }
    if (dump.events.empty()) {
        why = "the dump has no events: line";
        return std::nullopt;
    }
    if (!has_summary) {
        why = "the dump has no summary: line";
        return std::nullopt;
    }
    if (values.size() > dump.events.size()) {
        why = "the dump's summary has more values than events";
        return std::nullopt;
    }
    for (auto w : values) {
        unsigned long long v = 0;
        const auto [end, error] = std::from_chars(w.data(), w.data() + w.size(), v);
        if (error != std::errc() || end != w.data() + w.size()) {
            why = "the dump's summary holds '" + std::string(w) + "', not a count";
            return std::nullopt;
        }
        dump.summary.push_back(static_cast<double>(v));
    }
    dump.summary.resize(dump.events.size(), 0.0);
    return dump;
}

double column_total(const Column& column, const Dump& dump) {
    double total = 0;
    for (const char* event : column.events)
        if (event) total += dump.value(event);
    return total;
}

}  // namespace glint::engine::simulated
