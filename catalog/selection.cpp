#include "catalog/selection.hpp"

#include <algorithm>

#include "catalog/glob.hpp"

namespace glint::catalog {
namespace {

bool selector_picks(const std::string& selector, const MetricDescriptor& d) {
    if (selector == "all") return d.available;
    if (has_glob_chars(selector)) return d.available && glob_match(selector, d.name);
    return selector == d.name;
}

}  // namespace

Selection select_metrics(const std::vector<MetricDescriptor>& catalog,
                         const std::vector<std::string>& selectors) {
    Selection s;
    std::vector<bool> picked(catalog.size(), false);
    if (selectors.empty()) {
        for (std::size_t i = 0; i < catalog.size(); ++i)
            picked[i] = catalog[i].is_default;  // an unavailable default renders —
    }
    for (const auto& selector : selectors) {
        bool any = false;
        for (std::size_t i = 0; i < catalog.size(); ++i) {
            if (selector_picks(selector, catalog[i])) {
                picked[i] = true;
                any = true;
            }
        }
        // A glob naming only unavailable metrics still "matches" (they exist, just not here).
        if (!any && has_glob_chars(selector)) {
            any = std::any_of(catalog.begin(), catalog.end(), [&](const MetricDescriptor& d) {
                return glob_match(selector, d.name);
            });
        }
        if (!any) s.unmatched.push_back(selector);
    }
    for (std::size_t i = 0; i < catalog.size(); ++i)
        if (picked[i]) s.visible.push_back(catalog[i]);
    return s;
}

bool selects_source(const std::vector<MetricDescriptor>& catalog,
                    const std::vector<std::string>& selectors, const std::string& source) {
    for (const auto& d : catalog) {
        if (d.source != source) continue;
        for (const auto& selector : selectors) {
            if (selector == "all" || selector == d.name ||
                (has_glob_chars(selector) && glob_match(selector, d.name)))
                return true;
        }
    }
    return false;
}

}  // namespace glint::catalog
