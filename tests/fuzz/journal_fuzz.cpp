// libFuzzer target: the journal reader behind --recover-journal and the stale-journal scan
// (engine/runner/keeping/journal.hpp) over arbitrary files. It must return a document or one line
// naming the problem -- never crash, whatever the nesting, NUL bytes or rows that are no rows --
// and the document it returns must read back through the one JSON reader
// (engine/model/json_reader.hpp) with every row it counted, and through glint-compare's document
// reader (engine/compare/document.hpp) unless it nests too deep.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/compare/document.hpp"
#include "engine/model/json_limits.hpp"
#include "engine/runner/keeping/journal.hpp"

using namespace glint::engine;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::string problem;
    const auto recovered = journal_from_text(text, "fuzz.journal", problem);
    if (!recovered) {
        if (problem.empty() || problem.find('\n') != std::string::npos) __builtin_trap();
        return 0;
    }
    Json again;
    try {
        again = Json::parse(recovered->document.dump(2));
    } catch (
        const JsonReadError& e) {  // a row at the line's depth limit sits two levels deeper here
        if (!e.too_deep) __builtin_trap();
        return 0;
    }
    if (!again.find("rows") || again.at("rows").size() != recovered->rows) __builtin_trap();
    // glint-compare reads what was recovered: no row it refuses, no identity twice.
    std::string error;
    if (!parse_document(recovered->document.dump(2), "fuzz.json", error) &&
        error.find("nests deeper") == std::string::npos)
        __builtin_trap();
    return 0;
}
