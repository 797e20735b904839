#include <doctest/doctest.h>

#include "catalog/selection.hpp"

using namespace glint::catalog;

namespace {
MetricDescriptor d(std::string name, std::string source, bool available, bool is_default) {
    MetricDescriptor m;
    m.name = std::move(name);
    m.header = m.name;
    m.source = std::move(source);
    m.available = available;
    m.is_default = is_default;
    return m;
}
std::vector<std::string> names(const Selection& s) {
    std::vector<std::string> out;
    for (const auto& m : s.visible) out.push_back(m.name);
    return out;
}
}  // namespace

TEST_CASE("metric selection: defaults, names, globs, all, unmatched") {
    std::vector<MetricDescriptor> cat{d("ipc", "perf", true, true), d("instr", "perf", true, true),
                                      d("cache-miss", "perf", false, true),
                                      d("syscr", "tier0", true, false),
                                      d("B/s", "client", true, true)};
    CHECK(names(select_metrics(cat, {})) ==
          std::vector<std::string>{"ipc", "instr", "cache-miss", "B/s"});  // unavailable default: —
    CHECK(names(select_metrics(cat, {"syscr", "ipc"})) == std::vector<std::string>{"ipc", "syscr"});
    // An explicitly named unavailable column stays visible (renders —).
    CHECK(names(select_metrics(cat, {"cache-miss"})) == std::vector<std::string>{"cache-miss"});
    // Globs and all pick available columns only.
    CHECK(names(select_metrics(cat, {"cache-*"})).empty());
    CHECK(select_metrics(cat, {"cache-*"}).unmatched.empty());
    CHECK(names(select_metrics(cat, {"all"})) ==
          std::vector<std::string>{"ipc", "instr", "syscr", "B/s"});
    auto s = select_metrics(cat, {"nope", "zz*"});
    CHECK(s.unmatched == std::vector<std::string>{"nope", "zz*"});
    CHECK(selects_source(cat, {"ipc"}, "perf"));
    CHECK_FALSE(selects_source(cat, {"ipc"}, "tier0"));
    CHECK(selects_source(cat, {"all"}, "tier0"));
    CHECK(selects_source(cat, {"sys*"}, "tier0"));
}
