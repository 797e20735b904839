// engine/runner/case_filter.hpp: --filter, the one predicate every mode selects cases with.
// A case is its path ("<registration>", "<registration>#<k>" for its k-th iter,
// "<registration>/<name>" for a bench_case), its labels and its display name (model/row.hpp:
// "count/comma [len=256,op=count]"). --filter=TERM,...: GLOB (over the display name or a leading
// part of it, the path, the registration; a term also matches those texts literally), KEY=GLOB
// (a label), -TERM (an exclusion). Selected: at least one name term matches (if any is given),
// for each label key named at least one of its terms, and no exclusion. An empty filter
// selects everything. Bad syntax is a FilterError. Details: docs/rationale.md,
// "engine/runner/case_filter.hpp".
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
    CaseFilter() = default;                          // selects every case
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

// The terms of a --filter text: split at commas, except inside a closed [...] (so a display
// name "copy/memcpy [dataset=small,op=copy]" is one term).
std::vector<std::string> filter_terms(std::string_view text);

// The path of a case: "<registration>", "<registration>#<k>" (k > 1) or "<registration>/<name>".
std::string iter_path(const std::string& registration, int k);
std::string case_path(const std::string& registration, const std::string& name);

// Labels as every view prints them: " [key=value,key=value]", "" when none (display_labels).
std::string label_suffix(const Labels& labels);

// The one-line problem with a --filter text, or nullopt when it parses.
std::optional<std::string> check_filter(const std::string& text);

// "after: <message>" for an `after` that reported an error, the protocol's message for a body
// optimized away (timing/protocol.hpp), "exception: <what>" otherwise.
std::string describe_failure(std::exception_ptr failure);

}  // namespace glint::engine
