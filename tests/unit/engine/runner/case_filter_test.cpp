// --filter (engine/runner/case_filter.hpp): each kind of term, their combinations, exclusions,
// which bodies must run, and the malformed terms refused before anything runs.
#include <doctest/doctest.h>

#include <string>

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
    CHECK(sel("copy", "copy/memcpy", "copy"));          // the registration: all its cases
    CHECK(sel("copy/memcpy", "copy/memcpy", "copy"));
    CHECK_FALSE(sel("copy/memmove", "copy/memcpy", "copy"));
    CHECK(sel("*mem*", "copy/memcpy", "copy"));         // a substring, as a glob
    CHECK(sel("*/memcpy", "copy/memcpy", "copy"));
    CHECK_FALSE(sel("memcpy", "copy/memcpy", "copy"));  // not the case name alone
    CHECK(sel("add*", "add_chain", "add_chain"));
    CHECK(sel("umap", "umap#2", "umap"));               // a registration's k-th iter
    CHECK_FALSE(sel("umap#3", "umap#2", "umap"));
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
    CHECK(sel("dataset=small,dataset=large", "c/m", "c", kLargeCopy));      // either value
    CHECK(sel("dataset=small,op=copy", "c/m", "c", kSmallCopy));           // both keys
    CHECK_FALSE(sel("dataset=small,op=move", "c/m", "c", kSmallCopy));
    CHECK(sel("c/m,dataset=small", "c/m", "c", kSmallCopy));               // name and label
    CHECK_FALSE(sel("c/m,dataset=small", "c/m", "c", kLargeCopy));
    CHECK_FALSE(sel("other,dataset=small", "c/m", "c", kSmallCopy));
}

TEST_CASE("filter: -TERM excludes, by name or by label, whatever else matches") {
    CHECK_FALSE(sel("-copy", "copy/memcpy", "copy"));
    CHECK(sel("-copy", "sort", "sort"));                        // exclusions alone: the rest
    CHECK_FALSE(sel("copy,-copy/memcpy", "copy/memcpy", "copy"));
    CHECK(sel("copy,-copy/memcpy", "copy/strcpy", "copy"));
    CHECK_FALSE(sel("-dataset=large", "c/m", "c", kLargeCopy));
    CHECK(sel("-dataset=large", "c/m", "c", kSmallCopy));
    CHECK(sel("-dataset=large", "add_chain", "add_chain"));     // no label: not excluded
}

TEST_CASE("filter: which bodies must run") {
    CHECK(CaseFilter::parse("copy").may_select_under("copy"));
    CHECK(CaseFilter::parse("copy/m*").may_select_under("copy"));
    CHECK(CaseFilter::parse("umap#2").may_select_under("umap"));
    CHECK_FALSE(CaseFilter::parse("copy/m*").may_select_under("sort"));
    CHECK_FALSE(CaseFilter::parse("-copy").may_select_under("copy"));
    CHECK(CaseFilter::parse("-copy/memcpy").may_select_under("copy"));
    CHECK(CaseFilter::parse("size=10").may_select_under("anything"));  // labels come from bodies
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
