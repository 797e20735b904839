#include "engine/runner/bench/grouping.hpp"

#include <algorithm>

namespace glint::engine {
namespace {

const std::string* find_label(const Labels& labels, const std::string& key) {
    for (const auto& [k, v] : labels)
        if (k == key) return &v;
    return nullptr;
}

}  // namespace

std::vector<std::string> label_keys(const std::vector<const Labels*>& all) {
    std::vector<std::string> keys;
    for (const Labels* labels : all)
        for (const auto& [k, v] : *labels)
            if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    return keys;
}

std::vector<std::string> missing_keys(const std::vector<const Labels*>& all,
                                      const std::vector<std::string>& asked) {
    const std::vector<std::string> offered = label_keys(all);
    std::vector<std::string> missing;
    for (const auto& k : asked)
        if (std::find(offered.begin(), offered.end(), k) == offered.end()) missing.push_back(k);
    return missing;
}

std::string group_value(const Labels& labels, const std::vector<std::string>& keys) {
    std::string value;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i) value += '/';
        const std::string* v = find_label(labels, keys[i]);
        value += v ? *v : "—";
    }
    return value;
}

std::string group_title(const Labels& labels, const std::vector<std::string>& keys) {
    std::string title;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i) title += " · ";
        const std::string* v = find_label(labels, keys[i]);
        title += keys[i] + ": " + (v ? *v : "—");
    }
    return title;
}

std::vector<GroupIndex> group_rows(const std::vector<const Labels*>& all,
                                   const std::vector<std::string>& keys) {
    std::vector<std::string> values;
    for (const Labels* labels : all) values.push_back(group_value(*labels, keys));
    std::vector<GroupIndex> groups = group_by_value(values);
    const auto has_a_key = [&](const GroupIndex& g) {
        const Labels& first = *all[g.members.front()];
        return keys.empty() || std::any_of(keys.begin(), keys.end(), [&](const std::string& k) {
                   return find_label(first, k) != nullptr;
               });
    };
    std::stable_partition(groups.begin(), groups.end(), has_a_key);
    return groups;
}

std::vector<GroupIndex> group_by_value(const std::vector<std::string>& values) {
    std::vector<GroupIndex> groups;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::string& value = values[i];
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&](const GroupIndex& g) { return g.value == value; });
        if (it == groups.end()) {
            groups.push_back({value, {}});
            it = groups.end() - 1;
        }
        it->members.push_back(i);
    }
    return groups;
}

std::string grouped_name(const std::string& registration, const std::string& name,
                         const Labels& labels, const std::vector<std::string>& grouped_keys) {
    Labels shown;
    for (const auto& [k, v] : labels)
        if (std::find(grouped_keys.begin(), grouped_keys.end(), k) == grouped_keys.end())
            shown.emplace_back(k, v);
    return display_name(registration, name, shown);
}

}  // namespace glint::engine
