// engine/runner/case_filter.hpp: --filter, the one predicate every mode selects cases with (the
// plain run, --list, discovery, the bench run), and how a failure is worded.
//
// A case is seen as its path and its labels. Paths: "<registration>" for a registration's own
// row (a whole body, or its first glint::iter), "<registration>#<k>" for its k-th iter,
// "<registration>/<name>" for a bench_case. Labels: the bench_case's and the parameters'.
//
// --filter=TERM,TERM,... Each term is one of
//   GLOB        a name term: a glob (*, ?, [..]) over the path, or over the registration alone
//               ("copy" selects every case of the registration "copy")
//   KEY=GLOB    a label term: the case has label KEY, with a value the glob matches
//   -TERM       an exclusion: a case either kind of term matches is left out
// A case is selected when it matches at least one name term (if any is given), and, for each
// label key named by label terms, at least one of that key's terms, and no exclusion: terms of
// one kind are alternatives, kinds narrow each other. An empty filter selects everything.
#pragma once

#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/row.hpp"

namespace glint::engine {

// A malformed --filter (an empty term, "-" alone, "=value", "key="): what() names the term.
struct FilterError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};

class CaseFilter {
public:
    CaseFilter() = default;  // selects every case
    static CaseFilter parse(std::string_view text);  // throws FilterError

    bool empty() const { return terms_.empty(); }

    // True when the case at `path` under `registration`, with `labels`, is selected.
    bool selects(std::string_view path, std::string_view registration, const Labels& labels) const;

    // False only when nothing under `registration` can be selected (its body need not run).
    bool may_select_under(std::string_view registration) const;

    // False only when no case carrying all of `labels` (a parameter combination's, which every
    // case of that run carries) can be selected.
    bool may_select_labels(const Labels& labels) const;

private:
    struct Term {
        bool exclude = false;
        std::string key;      // "" for a name term
        std::string pattern;  // glob over the path/registration, or over the label's value
    };
    bool matches(const Term& t, std::string_view path, std::string_view registration,
                 const Labels& labels) const;
    std::vector<Term> terms_;
};

// The path of a case: "<registration>", "<registration>#<k>" (k > 1) or "<registration>/<name>".
std::string iter_path(const std::string& registration, int k);
std::string case_path(const std::string& registration, const std::string& name);

// Labels as test mode and --list print them: "[key=value,key=value]", "" when none (a form
// --filter accepts back: the same terms, comma-separated).
std::string label_suffix(const Labels& labels);

// The one-line problem with a --filter text, or nullopt when it parses.
std::optional<std::string> check_filter(const std::string& text);

// "after: <message>" for an `after` that reported an error, the protocol's message for a body
// optimized away (timing/protocol.hpp), "exception: <what>" otherwise.
std::string describe_failure(std::exception_ptr failure);

}  // namespace glint::engine
