#include <doctest/doctest.h>

#include "engine/runner/bench/grouping.hpp"

using namespace glint::engine;

TEST_CASE("grouping: keys, values, groups in first-seen order, display names") {
    Labels a = sorted_labels({{"operation", "parse"}, {"dataset", "canada"}});
    Labels b = sorted_labels({{"dataset", "twitter"}, {"operation", "parse"}});
    Labels c = sorted_labels({{"dataset", "canada"}, {"operation", "parse"}});
    Labels d = {};
    CHECK(a.front().first == "dataset");
    std::vector<const Labels*> all{&a, &b, &c, &d};
    CHECK(label_keys(all) == std::vector<std::string>{"dataset", "operation"});
    CHECK(group_value(a, {"dataset", "operation"}) == "canada/parse");
    CHECK(group_value(d, {"dataset"}) == "—");
    auto groups = group_rows(all, {"dataset"});
    REQUIRE(groups.size() == 3);
    CHECK(groups[0].value == "canada");
    CHECK(groups[0].members == std::vector<std::size_t>{0, 2});
    CHECK(groups[1].value == "twitter");
    CHECK(groups[2].value == "—");
    CHECK(group_rows(all, {}).size() == 1);
    // The name cell: the display name without the labels the group's title shows.
    CHECK(grouped_name("json", "asdf", a, {"dataset"}) == "json/asdf [operation=parse]");
    CHECK(grouped_name("json", "asdf", a, {"dataset", "operation"}) == "json/asdf");
    CHECK(grouped_name("json", "asdf", a, {}) == "json/asdf [dataset=canada,operation=parse]");
    CHECK(grouped_name("json", "asdf", a, {}) == display_name("json", "asdf", a));
}

TEST_CASE("grouping: a group's title names each key with its value") {
    const Labels a = sorted_labels({{"op", "find"}, {"size", "1000"}});
    CHECK(group_title(a, {"size"}) == "size: 1000");
    CHECK(group_title(a, {"size", "op"}) == "size: 1000 · op: find");
    CHECK(group_title(a, {"dataset"}) == "dataset: —");
}

TEST_CASE("grouping: rows without any of the keys form the last group, wherever they came first") {
    const Labels none = {};                                  // an iter row without labels
    const Labels small = sorted_labels({{"size", "64"}});    // an iter row's parameter
    const Labels partial = sorted_labels({{"op", "find"}});  // one of two keys
    const Labels both = sorted_labels({{"op", "find"}, {"size", "64"}});  // a bench_case
    std::vector<const Labels*> all{&none, &small, &both, &none};
    auto groups = group_rows(all, {"size"});
    REQUIRE(groups.size() == 2);
    CHECK(groups[0].value == "64");
    CHECK(groups[0].members == std::vector<std::size_t>{1, 2});
    CHECK(groups[1].value == "—");
    CHECK(groups[1].members == std::vector<std::size_t>{0, 3});
    CHECK(group_title(none, {"size"}) == "size: —");
    // With two keys, a row that has one of them is grouped by it; only a row with neither is last
    // (a group with the first key comes before one without it).
    all = {&none, &partial, &small};
    groups = group_rows(all, {"size", "op"});
    REQUIRE(groups.size() == 3);
    CHECK(groups[0].members == std::vector<std::size_t>{2});
    CHECK(groups[1].members == std::vector<std::size_t>{1});
    CHECK(groups[2].members == std::vector<std::size_t>{0});
    CHECK(group_title(none, {"size", "op"}) == "size: — · op: —");
}

TEST_CASE("grouping: numbers sort as numbers, other values keep their first-seen order") {
    // The order: two registrations, one with len 16, 256, 4096 and one with 64, 1024.
    std::vector<Labels> rows;
    for (const char* len : {"16", "256", "4096", "64", "1024", "16"})
        rows.push_back(sorted_labels({{"len", len}}));
    rows.push_back({});
    std::vector<const Labels*> all;
    for (const auto& r : rows) all.push_back(&r);
    auto groups = group_rows(all, {"len"});
    std::vector<std::string> order;
    for (const auto& g : groups) order.push_back(g.value);
    CHECK(order == std::vector<std::string>{"16", "64", "256", "1024", "4096", "—"});
    CHECK(groups[0].members == std::vector<std::size_t>{0, 5});

    // A key with one non-number keeps first-seen order; keys compare in the order asked.
    const Labels f64 = sorted_labels({{"op", "find"}, {"size", "64"}});
    const Labels i16 = sorted_labels({{"op", "insert"}, {"size", "16"}});
    const Labels f16 = sorted_labels({{"op", "find"}, {"size", "16"}});
    const Labels big = sorted_labels({{"op", "insert"}, {"size", "large"}});
    all = {&f64, &i16, &f16};
    order.clear();
    for (const auto& g : group_rows(all, {"op", "size"})) order.push_back(g.value);
    CHECK(order == std::vector<std::string>{"find/16", "find/64", "insert/16"});
    all = {&f64, &big, &f16};
    order.clear();
    for (const auto& g : group_rows(all, {"size"})) order.push_back(g.value);
    CHECK(order == std::vector<std::string>{"64", "large", "16"});
}
