// engine/model/json_reader.hpp: the one JSON reader. Every document glint reads (baselines and
// glint-compare inputs, journals, an --isolate child's lines, guarded-run records) is parsed by
// nlohmann's iterative parser after a linear check that it nests at most kMaxJsonDepth levels;
// every refusal is a JsonReadError (engine/model/json_limits.hpp). Json::parse is this reader
// into glint's Json (members in document order, duplicates kept); glint's Json is the writer.
#pragma once

#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "engine/model/json_limits.hpp"

namespace glint::engine {

// Throws JsonReadError (too_deep) when `text` nests deeper than kMaxJsonDepth; linear, strings
// skipped. Malformed text is the parser's to refuse.
void check_json_depth(std::string_view text);

// The document as nlohmann::json (object members by name). Throws JsonReadError; what() is
// nlohmann's message (with the byte) for malformed text, as sanitize::terminal shows it (the
// message quotes the input, which may be invalid UTF-8 or hold escapes).
nlohmann::json read_json_tree(std::string_view text);

}  // namespace glint::engine
