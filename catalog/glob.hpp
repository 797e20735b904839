// catalog/glob.hpp: shell-style globs (*, ?, [abc], [a-z], [!x]) for --filter and --metrics.
// '*' matches any run of characters, '/' included.
#pragma once

#include <string_view>

namespace glint::catalog {

// True when `glob` matches all of `text`.
bool glob_match(std::string_view glob, std::string_view text);

// True when some continuation of `prefix` + `separator` could be matched by `glob` (so a
// registration whose name is `prefix` may hold a case named "<prefix>/<case>" that the glob
// selects).
bool glob_may_match_extension(std::string_view glob, std::string_view prefix, char separator = '/');

bool has_glob_chars(std::string_view text);

}  // namespace glint::catalog
