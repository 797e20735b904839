#include "engine/compare/document_stream.hpp"

#include <string>
#include <utility>

#include "engine/model/json_reader.hpp"

namespace glint::engine {

nlohmann::json stream_document(std::string_view text, const DocumentEvents& events) {
    using nlohmann::json;
    using Event = json::parse_event_t;
    check_json_depth(text);
    // nlohmann's tree parser with its filter: depth 1 is the top level's members, 2 the
    // elements of a top-level array. An element of "rows" is handed over once whole, then
    // dropped from the tree.
    bool rows_key = false, in_rows = false;
    const json::parser_callback_t filter = [&](int depth, Event event, json& parsed) {
        switch (event) {
            case Event::key:
                if (depth == 1) {
                    rows_key = parsed == "rows";
                    if (rows_key) events.rows_begin();
                }
                return true;
            case Event::array_start:
                if (depth == 1) in_rows = rows_key;
                return true;
            case Event::object_start:
                return true;
            case Event::array_end:
            case Event::object_end:
            case Event::value:
                if (depth == 1 && event == Event::array_end) in_rows = false;
                if (depth != 2 || !in_rows) return true;
                events.row(std::move(parsed));
                return false;
        }
        return true;
    };
    try {
        return json::parse(text, filter);
    } catch (const json::exception& e) {
        throw JsonReadError(e.what(), false);
    }
}

}  // namespace glint::engine
