// --filter (engine/runner/case_filter.hpp): each kind of term, their combinations, exclusions,
// which bodies must run, and the malformed terms refused before anything runs.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/runner/case_filter.hpp"

using namespace glint::engine;

namespace {

const Labels kNone;
const Labels kSmallCopy{{"dataset", "small"}, {"op", "copy"}};
const Labels kLargeCopy{{"dataset", "large"}, {"op", "copy"}};
const Labels kSize1000{{"size", "1000"}};

bool sel(const std::string& filter, const std::string& path, const std::string& reg,
         const Labels& labels = kNone) {
    return CaseFilter::parse(filter).selects(path, reg, labels);
}

}  // namespace

TEST_CASE("filter: an empty filter selects everything") {
    CHECK(sel("", "anything", "anything"));
    CHECK(sel("", "copy/memcpy", "copy", kSmallCopy));
    CHECK(CaseFilter::parse("").may_select_under("x"));
}

TEST_CASE("filter: name terms glob over the path or the registration alone") {
    CHECK(sel("copy", "copy/memcpy", "copy"));  // the registration: all its cases
    CHECK(sel("copy/memcpy", "copy/memcpy", "copy"));
    CHECK_FALSE(sel("copy/memmove", "copy/memcpy", "copy"));
    CHECK(sel("*mem*", "copy/memcpy", "copy"));  // a substring, as a glob
    CHECK(sel("*/memcpy", "copy/memcpy", "copy"));
    CHECK_FALSE(sel("memcpy", "copy/memcpy", "copy"));  // not the case name alone
    CHECK(sel("add*", "add_chain", "add_chain"));
    CHECK(sel("umap", "umap#2", "umap"));  // a registration's k-th iter
    CHECK_FALSE(sel("umap#3", "umap#2", "umap"));
}

TEST_CASE("filter: name terms match the display name or its leading parts") {
    const Labels count{{"len", "256"}, {"op", "count"}};
    // Every name --list prints selects its row, taken literally ("[...]" is no glob class here).
    CHECK(sel("count/comma [len=256,op=count]", "count/comma", "count", count));
    CHECK(sel("count/comma [len=256", "count/comma", "count", count));
    CHECK(sel("count/comma", "count/comma", "count", count));
    CHECK_FALSE(sel("count/comma [len=25", "count/comma", "count", count));  // not a whole value
    CHECK_FALSE(sel("count/comma [len=512,op=count]", "count/comma", "count", count));
    CHECK_FALSE(
        sel("count/comma [op=count]", "count/comma", "count", count));  // labels in key order
    // A registration named with a '/': its leading part selects it, as a user types it.
    CHECK(sel("split", "split/1KiB", "split/1KiB"));
    CHECK(sel("split/1KiB", "split/1KiB", "split/1KiB"));
    CHECK(sel("split", "split/1KiB#2", "split/1KiB"));
    CHECK(sel("split/1KiB#2", "split/1KiB#2", "split/1KiB"));
    CHECK_FALSE(sel("spl", "split/1KiB", "split/1KiB"));  // a whole part, never a fragment
    CHECK_FALSE(sel("1KiB", "split/1KiB", "split/1KiB"));
    CHECK(sel("sum [size=1024]", "sum", "sum", Labels{{"size", "1024"}}));
    CHECK_FALSE(sel("sum [size=4096]", "sum", "sum", Labels{{"size", "1024"}}));
    CHECK(sel("-count/comma [len=256", "count/comma", "count", Labels{{"len", "512"}}));
    CHECK_FALSE(sel("-count/comma [len=256", "count/comma", "count", count));
    CHECK(sel("*comma [len=2*", "count/comma", "count", count));  // globs too
}

TEST_CASE("filter: a comma inside closed brackets belongs to its term") {
    CHECK(filter_terms("a [x=1,y=2],b") == std::vector<std::string>{"a [x=1,y=2]", "b"});
    CHECK(filter_terms("a [x=1,y=2") == std::vector<std::string>{"a [x=1", "y=2"});  // unclosed
    CHECK(filter_terms("[ab]*,c") == std::vector<std::string>{"[ab]*", "c"});
    CHECK(filter_terms("").empty());
    // '=' after a '[' is a name term's: "x [size=1]" is a display name, not a label term.
    CHECK(sel("x [size=1]", "x", "x", Labels{{"size", "1"}}));
    CHECK_FALSE(sel("x [size=1]", "y", "y", Labels{{"size", "1"}}));
}

TEST_CASE("filter: comma-separated name terms are alternatives") {
    CHECK(sel("sort,copy", "copy/memcpy", "copy"));
    CHECK(sel("sort,copy", "sort", "sort"));
    CHECK_FALSE(sel("sort,copy", "hash", "hash"));
}

TEST_CASE("filter: label terms match a label's value, globs included") {
    CHECK(sel("dataset=small", "copy/memcpy", "copy", kSmallCopy));
    CHECK_FALSE(sel("dataset=small", "copy/memcpy", "copy", kLargeCopy));
    CHECK(sel("dataset=l*", "copy/memcpy", "copy", kLargeCopy));
    CHECK_FALSE(sel("dataset=small", "add_chain", "add_chain"));  // no such label
    CHECK(sel("size=1000", "umap/lookup", "umap", kSize1000));
}

TEST_CASE("filter: terms of one key are alternatives, different keys and names narrow") {
    CHECK(sel("dataset=small,dataset=large", "c/m", "c", kLargeCopy));  // either value
    CHECK(sel("dataset=small,op=copy", "c/m", "c", kSmallCopy));        // both keys
    CHECK_FALSE(sel("dataset=small,op=move", "c/m", "c", kSmallCopy));
    CHECK(sel("c/m,dataset=small", "c/m", "c", kSmallCopy));  // name and label
    CHECK_FALSE(sel("c/m,dataset=small", "c/m", "c", kLargeCopy));
    CHECK_FALSE(sel("other,dataset=small", "c/m", "c", kSmallCopy));
}

TEST_CASE("filter: -TERM excludes, by name or by label, whatever else matches") {
    CHECK_FALSE(sel("-copy", "copy/memcpy", "copy"));
    CHECK(sel("-copy", "sort", "sort"));  // exclusions alone: the rest
    CHECK_FALSE(sel("copy,-copy/memcpy", "copy/memcpy", "copy"));
    CHECK(sel("copy,-copy/memcpy", "copy/strcpy", "copy"));
    CHECK_FALSE(sel("-dataset=large", "c/m", "c", kLargeCopy));
    CHECK(sel("-dataset=large", "c/m", "c", kSmallCopy));
    CHECK(sel("-dataset=large", "add_chain", "add_chain"));  // no label: not excluded
}

TEST_CASE("filter: which bodies must run") {
    CHECK(CaseFilter::parse("copy").may_select_under("copy"));
    CHECK(CaseFilter::parse("copy/m*").may_select_under("copy"));
    CHECK(CaseFilter::parse("umap#2").may_select_under("umap"));
    CHECK_FALSE(CaseFilter::parse("copy/m*").may_select_under("sort"));
    CHECK_FALSE(CaseFilter::parse("-copy").may_select_under("copy"));
    CHECK(CaseFilter::parse("-copy/memcpy").may_select_under("copy"));
    CHECK(CaseFilter::parse("size=10").may_select_under("anything"));  // labels come from bodies
    CHECK(CaseFilter::parse("split").may_select_under("split/1KiB"));
    CHECK_FALSE(CaseFilter::parse("-split").may_select_under("split/1KiB"));
    CHECK(CaseFilter::parse("count/comma [len=256").may_select_under("count"));
    CHECK(CaseFilter::parse("sum [size=1024]").may_select_under("sum"));
    CHECK_FALSE(CaseFilter::parse("sum [size=1024]").may_select_under("su"));
    CHECK_FALSE(CaseFilter::parse("sum [size=1024]").may_select_under("summary"));
    // A parameter combination every case of a run carries.
    CHECK(CaseFilter::parse("size=10").may_select_labels(Labels{{"size", "10"}}));
    CHECK_FALSE(CaseFilter::parse("size=10").may_select_labels(Labels{{"size", "20"}}));
    CHECK_FALSE(CaseFilter::parse("-size=20").may_select_labels(Labels{{"size", "20"}}));
    CHECK(CaseFilter::parse("op=find").may_select_labels(Labels{{"size", "20"}}));
}

TEST_CASE("filter: malformed terms are refused with one line naming them") {
    CHECK(check_filter("a,,b")->find("empty term") != std::string::npos);
    CHECK(check_filter("a,")->find("empty term") != std::string::npos);
    CHECK(check_filter("-")->find("'-' excludes nothing") != std::string::npos);
    CHECK(check_filter("=1")->find("'=1' is not a label term") != std::string::npos);
    CHECK(check_filter("size=")->find("KEY=VALUE") != std::string::npos);
    CHECK_FALSE(check_filter("a,-b,size=1*,-op=x"));
}

TEST_CASE("filter: paths and the label suffix test mode and --list print") {
    CHECK(iter_path("umap", 1) == "umap");
    CHECK(iter_path("umap", 3) == "umap#3");
    CHECK(case_path("umap", "lookup") == "umap/lookup");
    CHECK(label_suffix(kNone).empty());
    CHECK(label_suffix(kSize1000) == " [size=1000]");
    CHECK(label_suffix(kSmallCopy) == " [dataset=small,op=copy]");
}
