// engine/runner/case_filter.hpp: --filter over case names, and how a failure is worded.
// Shared by the plain run, the discovery run and the bench run.
#pragma once

#include <exception>
#include <string>

namespace glint::engine {

// True when the --filter glob (empty: everything) selects `name`.
bool filter_selects(const std::string& filter, const std::string& name);

// True when a registration's body must run: the glob selects the registration, or may select a
// bench_case under it ("<registration>/<case>").
bool filter_may_select_under(const std::string& filter, const std::string& registration);

// True when the glob selects a bench_case, by registration, "<registration>/<case>" or case name.
bool filter_selects_case(const std::string& filter, const std::string& registration,
                         const std::string& case_name);

// "after: <message>" for an `after` that reported an error, "exception: <what>" otherwise.
std::string describe_failure(std::exception_ptr failure);

}  // namespace glint::engine
