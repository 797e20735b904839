// engine/runner/bench/grouping.hpp: --group-by over the labels of every row (iter, whole-body
// and bench_case rows alike: a parameter is a label too). Pure functions.
#pragma once

#include <string>
#include <vector>

#include "engine/model/row.hpp"

namespace glint::engine {

// Every label key, in first-seen order.
std::vector<std::string> label_keys(const std::vector<const Labels*>& all);
// Of `asked`, the keys none of `all` has.
std::vector<std::string> missing_keys(const std::vector<const Labels*>& all,
                                      const std::vector<std::string>& asked);

// The group a row belongs to: its values for `keys` joined by "/" ("—" for a missing key).
std::string group_value(const Labels& labels, const std::vector<std::string>& keys);

// A --group-by table's title: each key with the group's value, "size: 1000 · op: find" ("—"
// for a missing key).
std::string group_title(const Labels& labels, const std::vector<std::string>& keys);

// Index lists of the groups, ordered key by key: a key whose values are all numbers by number
// (16, 64, 256, not 16, 256, 64), any other key by its values' first-seen order, a group
// without the key after those with it; the rows that have none of `keys` form one group, the
// last (its value and title read "—" for every key).
struct GroupIndex {
    std::string value;
    std::vector<std::size_t> members;
};
std::vector<GroupIndex> group_rows(const std::vector<const Labels*>& all,
                                   const std::vector<std::string>& keys);
// The same over plain values (e.g. each row's registration name, the default split).
std::vector<GroupIndex> group_by_value(const std::vector<std::string>& values);

// The table's name cell: the row's display name (model/row.hpp) without the labels the
// --group-by title shows ("json/asdf [operation=parse]" under "dataset: canada"); with no
// grouped keys, the display name itself.
std::string grouped_name(const std::string& registration, const std::string& name,
                         const Labels& labels, const std::vector<std::string>& grouped_keys);

}  // namespace glint::engine
