#include "engine/runner/case_filter.hpp"

#include <algorithm>

#include "catalog/glob.hpp"
#include "engine/registry/params.hpp"
#include "engine/tiers/tier.hpp"
#include "engine/timing/protocol.hpp"

namespace glint::engine {
namespace {

const std::string* label_value(const Labels& labels, std::string_view key) {
    for (const auto& [k, v] : labels)
        if (k == key) return &v;
    return nullptr;
}

// A name term matches a text as a glob or, taken literally, as the text itself (a display
// name's "[...]" is text, not a glob class).
bool term_matches(const std::string& pattern, std::string_view text) {
    return pattern == text || catalog::glob_match(pattern, text);
}

// The texts a name term is tried on: the display name and its leading parts (cut before a '/'
// or '#' of the name, at its " [", before each ',' of the labels), the path, the registration.
bool name_matches(const std::string& pattern, std::string_view path, std::string_view registration,
                  const Labels& labels) {
    if (term_matches(pattern, path) || term_matches(pattern, registration)) return true;
    const bool own = is_own_row(registration, path) ||
                     path.substr(0, registration.size() + 1) != std::string(registration) + "/";
    const std::string_view name = own ? path : path.substr(registration.size() + 1);
    const std::string display = display_name(registration, name, labels);
    const std::size_t name_end = display.size() - display_labels(labels).size();
    for (std::size_t i = 1; i < display.size(); ++i) {
        const char c = display[i];
        const bool cut = i < name_end ? (c == '/' || c == '#') : (i == name_end || c == ',');
        if (cut && term_matches(pattern, std::string_view(display).substr(0, i))) return true;
    }
    return term_matches(pattern, display);
}

// Whether every case under `registration` has a leading part the name term matches.
bool covers_registration(const std::string& pattern, std::string_view registration) {
    for (std::size_t i = 1; i < registration.size(); ++i)
        if ((registration[i] == '/' || registration[i] == '#') &&
            term_matches(pattern, registration.substr(0, i)))
            return true;
    return term_matches(pattern, registration);
}

// Whether the term, taken literally, names something under `registration` ("split/1KiB [n=1]").
bool literally_under(std::string_view pattern, std::string_view registration) {
    if (pattern.substr(0, registration.size()) != registration) return false;
    return pattern.size() == registration.size() || pattern[registration.size()] == '/' ||
           pattern[registration.size()] == '#' || pattern[registration.size()] == ' ';
}

}  // namespace

std::vector<std::string> filter_terms(std::string_view text) {
    std::vector<std::string> terms;
    if (text.empty()) return terms;
    std::string term;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '[') {  // a closed [...] is one piece, commas included
            if (const std::size_t close = text.find(']', i + 1); close != std::string_view::npos) {
                term.append(text.substr(i, close + 1 - i));
                i = close;
                continue;
            }
        }
        if (text[i] == ',') {
            terms.push_back(std::move(term));
            term.clear();
        } else {
            term += text[i];
        }
    }
    terms.push_back(std::move(term));
    return terms;
}

CaseFilter CaseFilter::parse(std::string_view text) {
    CaseFilter f;
    for (const std::string& raw : filter_terms(text)) {
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
        // KEY=GLOB when the '=' comes before any '[' ("x [size=1]" is a display name).
        if (const std::size_t eq = body.find('=');
            eq != std::string_view::npos && body.find('[') > eq) {
            t.key = std::string(body.substr(0, eq));
            t.pattern = std::string(body.substr(eq + 1));
            if (t.key.empty() || t.pattern.empty())
                throw FilterError("--filter: '" + raw +
                                  "' is not a label term; write KEY=VALUE (e.g. size=1024, "
                                  "size=1*)");
        } else {
            t.pattern = std::string(body);
        }
        f.terms_.push_back(std::move(t));
    }
    return f;
}

bool CaseFilter::matches(const Term& t, std::string_view path, std::string_view registration,
                         const Labels& labels) const {
    if (t.key.empty()) return name_matches(t.pattern, path, registration, labels);
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
            if (covers_registration(t.pattern, registration)) return false;  // all of it
            continue;
        }
        any_name = true;
        may = may || covers_registration(t.pattern, registration) ||
              literally_under(t.pattern, registration) ||
              catalog::glob_may_match_extension(t.pattern, registration, '/') ||
              catalog::glob_may_match_extension(t.pattern, registration, '#') ||
              catalog::glob_may_match_extension(t.pattern, registration, ' ');
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

std::string label_suffix(const Labels& labels) { return display_labels(labels); }

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
    } catch (const MetricParamError& f) {  // names the registration, the parameter, the fix
        return f.what();
    } catch (const std::exception& x) {
        return std::string("exception: ") + x.what();
    } catch (...) {
        return "exception of unknown type";
    }
}

}  // namespace glint::engine
