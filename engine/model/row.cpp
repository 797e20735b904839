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
    for (const auto& [k, v] : sorted) key += '\x1f' + sanitize::valid_utf8(k) + '=' + sanitize::valid_utf8(v);
    return key;
}

std::vector<std::string> Row::estimated_metrics() const {
    std::vector<std::string> names;
    for (const auto& c : cells)
        if (c.estimated && c.measured()) names.push_back(c.name);
    return names;
}

const catalog::MetricCell* Row::cell(std::string_view name) const {
    for (const auto& c : cells)
        if (c.name == name) return &c;
    return nullptr;
}

}  // namespace glint::engine
