// engine/compare/document_stream.hpp: a --bench-json document parsed without building its rows
// as one tree. The text is parsed by the one JSON reader's rules (engine/model/json_reader.hpp:
// the depth check first, then nlohmann's parser, every refusal a JsonReadError with the same
// message read_json_tree gives), but each element of the top-level "rows" array is built as a
// tree of its own, handed to the caller and dropped: the parse holds one row's tree at a time
// instead of the whole document's (a tree costs several times its text).
#pragma once

#include <functional>
#include <string_view>

#include <nlohmann/json.hpp>

namespace glint::engine {

struct DocumentEvents {
    // A top-level "rows" member begins (again, when the document repeats the key: the last
    // one is the document's, as in a tree): rows handed over so far are not the document's.
    std::function<void()> rows_begin;
    // One element of a top-level "rows" array, in order.
    std::function<void(nlohmann::json&& row)> row;
};

// The document as a tree, except that a top-level "rows" array is left empty: its elements went
// to `events.row`. Throws JsonReadError.
nlohmann::json stream_document(std::string_view text, const DocumentEvents& events);

}  // namespace glint::engine
