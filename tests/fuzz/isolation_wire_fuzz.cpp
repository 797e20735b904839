// libFuzzer target: the parent's reader of the lines an --isolate child writes
// (engine/runner/isolation/wire.hpp): each line parsed by the one JSON reader (Json::parse,
// engine/model/json_reader.hpp: depth-limited), then a row
// (row_from_json) or a deferred case (deferred_from_json) read from it. A line that is not one
// of ours is refused with an exception, never a crash or undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include "engine/report/json_rows.hpp"
#include "engine/runner/isolation/wire.hpp"

using namespace glint::engine;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const Json line = Json::parse(text);
        if (const Json* r = line.find("row")) (void)row_from_json(*r, {});
        if (const Json* d = line.find("deferred")) (void)deferred_from_json(*d);
    } catch (const std::exception&) {}
    return 0;
}
