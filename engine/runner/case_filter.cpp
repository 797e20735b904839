#include "engine/runner/case_filter.hpp"

#include <algorithm>

#include "catalog/glob.hpp"
#include "engine/tiers/tier.hpp"
#include "engine/timing/protocol.hpp"

namespace glint::engine {
namespace {

const std::string* label_value(const Labels& labels, std::string_view key) {
    for (const auto& [k, v] : labels)
        if (k == key) return &v;
    return nullptr;
}

}  // namespace

CaseFilter CaseFilter::parse(std::string_view text) {
    CaseFilter f;
    if (text.empty()) return f;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view raw = text.substr(start, comma - start);
        std::string_view body = raw;
        Term t;
        if (body.empty())
            throw FilterError("--filter: an empty term in '" + std::string(text) +
                              "'; separate patterns with single commas");
        if (body.front() == '-') {
            t.exclude = true;
            body.remove_prefix(1);
            if (body.empty())
                throw FilterError("--filter: '-' excludes nothing; write -PATTERN or -KEY=VALUE");
        }
        if (const std::size_t eq = body.find('='); eq != std::string_view::npos) {
            t.key = std::string(body.substr(0, eq));
            t.pattern = std::string(body.substr(eq + 1));
            if (t.key.empty() || t.pattern.empty())
                throw FilterError("--filter: '" + std::string(raw) +
                                  "' is not a label term; write KEY=VALUE (e.g. size=1024, "
                                  "size=1*)");
        } else {
            t.pattern = std::string(body);
        }
        f.terms_.push_back(std::move(t));
        if (comma == text.size()) break;
        start = comma + 1;
    }
    return f;
}

bool CaseFilter::matches(const Term& t, std::string_view path, std::string_view registration,
                         const Labels& labels) const {
    if (t.key.empty())
        return catalog::glob_match(t.pattern, path) || catalog::glob_match(t.pattern, registration);
    const std::string* v = label_value(labels, t.key);
    return v && catalog::glob_match(t.pattern, *v);
}

bool CaseFilter::selects(std::string_view path, std::string_view registration,
                         const Labels& labels) const {
    bool any_name = false, name_hit = false;
    for (const Term& t : terms_) {
        if (t.exclude) {
            if (matches(t, path, registration, labels)) return false;
        } else if (t.key.empty()) {
            any_name = true;
            name_hit = name_hit || matches(t, path, registration, labels);
        }
    }
    if (any_name && !name_hit) return false;
    // Each label key named by positive terms: one of its terms must match.
    for (const Term& t : terms_) {
        if (t.exclude || t.key.empty()) continue;
        const bool key_hit = std::any_of(terms_.begin(), terms_.end(), [&](const Term& u) {
            return !u.exclude && u.key == t.key && matches(u, path, registration, labels);
        });
        if (!key_hit) return false;
    }
    return true;
}

bool CaseFilter::may_select_under(std::string_view registration) const {
    bool any_name = false, may = false;
    for (const Term& t : terms_) {
        if (!t.key.empty()) continue;
        if (t.exclude) {
            if (catalog::glob_match(t.pattern, registration)) return false;  // all of it
            continue;
        }
        any_name = true;
        may = may || catalog::glob_match(t.pattern, registration) ||
              catalog::glob_may_match_extension(t.pattern, registration, '/') ||
              catalog::glob_may_match_extension(t.pattern, registration, '#');
    }
    return !any_name || may;
}

bool CaseFilter::may_select_labels(const Labels& labels) const {
    for (const auto& [key, value] : labels) {
        bool named = false, hit = false;
        for (const Term& t : terms_) {
            if (t.key != key) continue;
            const bool m = catalog::glob_match(t.pattern, value);
            if (t.exclude) {
                if (m) return false;
                continue;
            }
            named = true;
            hit = hit || m;
        }
        if (named && !hit) return false;
    }
    return true;
}

std::string iter_path(const std::string& registration, int k) {
    return k > 1 ? registration + "#" + std::to_string(k) : registration;
}

std::string case_path(const std::string& registration, const std::string& name) {
    return registration + "/" + name;
}

std::string label_suffix(const Labels& labels) {
    if (labels.empty()) return {};
    std::string s = " [";
    for (std::size_t i = 0; i < labels.size(); ++i)
        s += (i ? "," : "") + labels[i].first + "=" + labels[i].second;
    return s + "]";
}

std::optional<std::string> check_filter(const std::string& text) {
    try {
        CaseFilter::parse(text);
    } catch (const FilterError& e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

std::string describe_failure(std::exception_ptr failure) {
    try {
        std::rethrow_exception(failure);
    } catch (const CaseFailure& f) {
        return std::string("after: ") + f.what();
    } catch (const OptimizedAway& f) {  // the protocol's own message, naming the fix
        return f.what();
    } catch (const std::exception& x) {
        return std::string("exception: ") + x.what();
    } catch (...) {
        return "exception of unknown type";
    }
}

}  // namespace glint::engine
