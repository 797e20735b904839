// A row's one display name (engine/model/row.hpp): registration, name and labels with their
// keys, the registration's own rows by their name alone.
#include <doctest/doctest.h>

#include "engine/model/row.hpp"

using namespace glint::engine;

TEST_CASE("display name: registration/name then labels with their keys sorted by key") {
    const Labels labels{{"op", "count"}, {"len", "256"}};  // out of order on purpose
    CHECK(display_name("count", "comma", labels) == "count/comma [len=256,op=count]");
    CHECK(display_name("count", "comma", {}) == "count/comma");
    CHECK(display_labels(labels) == " [len=256,op=count]");
    CHECK(display_labels({}).empty());
}

TEST_CASE("display name: a registration's own rows are named by their name alone") {
    CHECK(display_name("add_chain", "add_chain", {}) == "add_chain");
    CHECK(display_name("sum", "sum", {{"size", "1024"}}) == "sum [size=1024]");
    CHECK(display_name("umap", "umap#2", {}) == "umap#2");                // its second iter
    CHECK(display_name("split/1KiB", "split/1KiB", {}) == "split/1KiB");  // a '/' in a registration
    CHECK(display_name("", "old", {{"x", "1"}}) ==
          "old [x=1]");                                        // a document without registrations
    CHECK(display_name("umap", "umap#", {}) == "umap/umap#");  // "#" alone is no iter number
    CHECK(is_own_row("umap", "umap#3"));
    CHECK_FALSE(is_own_row("umap", "umapx"));
    CHECK_FALSE(is_own_row("umap", "lookup"));
}
