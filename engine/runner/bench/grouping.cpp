#include "engine/runner/bench/grouping.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>

namespace glint::engine {
namespace {

const std::string* find_label(const Labels& labels, const std::string& key) {
    for (const auto& [k, v] : labels)
        if (k == key) return &v;
    return nullptr;
}

// `text` as a number when all of it reads as a finite one ("64", "1e3", "-0.5").
std::optional<double> as_number(const std::string& text) {
    if (text.empty()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

// How groups order under one key: by number when every group's value of it is one, else by the
// value's first-seen rank; a group without the key after those with it.
struct KeyOrder {
    bool numeric = true;
    std::vector<std::string> seen;  // values in first-seen order
    // Rank of a value: (missing, number or first-seen index).
    std::pair<bool, double> rank(const std::string* v) const {
        if (!v) return {true, 0};
        if (numeric) return {false, *as_number(*v)};
        return {false, static_cast<double>(std::find(seen.begin(), seen.end(), *v) - seen.begin())};
    }
};

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
    std::vector<KeyOrder> orders(keys.size());
    for (std::size_t k = 0; k < keys.size(); ++k)
        for (const GroupIndex& g : groups)
            if (const std::string* v = find_label(*all[g.members.front()], keys[k])) {
                orders[k].numeric = orders[k].numeric && as_number(*v).has_value();
                if (std::find(orders[k].seen.begin(), orders[k].seen.end(), *v) ==
                    orders[k].seen.end())
                    orders[k].seen.push_back(*v);
            }
    std::stable_sort(groups.begin(), groups.end(), [&](const GroupIndex& a, const GroupIndex& b) {
        for (std::size_t k = 0; k < keys.size(); ++k) {
            const auto ra = orders[k].rank(find_label(*all[a.members.front()], keys[k]));
            const auto rb = orders[k].rank(find_label(*all[b.members.front()], keys[k]));
            if (ra != rb) return ra < rb;
        }
        return false;
    });
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
