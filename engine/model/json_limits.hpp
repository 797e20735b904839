// engine/model/json_limits.hpp: what Json::parse (engine/model/json.hpp) refuses, and reading
// its numbers as integers without undefined behaviour -- for the readers of lines and files
// glint did not necessarily write (journals, an --isolate child's pipe, guarded-run records).
#pragma once

#include <limits>
#include <stdexcept>

namespace glint::engine {

// Json::parse refuses arrays and objects nested deeper (the reader recurses once per level, so
// this bounds its stack); glint's own documents, journals and pipe lines nest 8 levels deep.
// The same bound as the document reader's kMaxJsonDepth (engine/compare/document.hpp).
inline constexpr int kMaxJsonParseDepth = 64;

// Thrown by Json::parse for nesting beyond kMaxJsonParseDepth; a runtime_error like its other
// parse errors.
struct JsonTooDeep : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A JSON number read as an integer of type T: clamped to T's range, nan as 0 (casting an
// out-of-range double is undefined behaviour).
template <class T>
T json_integer(double v) {
    if (!(v > static_cast<double>(std::numeric_limits<T>::lowest())))
        return v == v ? std::numeric_limits<T>::lowest() : T{};
    if (!(v < static_cast<double>(std::numeric_limits<T>::max()))) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
}

}  // namespace glint::engine
