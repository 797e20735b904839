#include "engine/model/row.hpp"

#include <algorithm>

#include "engine/model/sanitize.hpp"

namespace glint::engine {

Labels sorted_labels(std::vector<std::pair<std::string, std::string>> labels) {
    std::stable_sort(labels.begin(), labels.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    return labels;
}

std::string identity_key(const std::string& registration, const std::string& name,
                         const Labels& sorted) {
    // As the documents spell them (invalid UTF-8 as U+FFFD): a row measured here and the same
    // row read back from --bench-json have one key.
    std::string key = sanitize::valid_utf8(registration) + '\x1e' + sanitize::valid_utf8(name);
    for (const auto& [k, v] : sorted)
        key += '\x1f' + sanitize::valid_utf8(k) + '=' + sanitize::valid_utf8(v);
    return key;
}

bool is_own_row(std::string_view registration, std::string_view name) {
    if (registration.empty() || name == registration) return true;
    return name.size() > registration.size() + 1 &&
           name.substr(0, registration.size()) == registration && name[registration.size()] == '#';
}

std::string display_labels(const Labels& labels) {
    if (labels.empty()) return {};
    std::string s = " [";
    bool first = true;
    for (const auto& [k, v] : sorted_labels(labels)) {
        s += (first ? "" : ",") + k + "=" + v;
        first = false;
    }
    return s + "]";
}

std::string display_name(std::string_view registration, std::string_view name,
                         const Labels& labels) {
    std::string text = is_own_row(registration, name)
                           ? std::string(name)
                           : std::string(registration) + "/" + std::string(name);
    return text + display_labels(labels);
}

std::vector<std::string> Row::estimated_metrics() const {
    std::vector<std::string> names;
    for (const auto& c : cells)
        if (c.estimated && c.measured()) names.push_back(c.name);
    return names;
}

const catalog::MetricCell* Row::cell(std::string_view metric) const {
    for (const auto& c : cells)
        if (c.name == metric) return &c;
    return nullptr;
}

}  // namespace glint::engine
