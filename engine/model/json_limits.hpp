// engine/model/json_limits.hpp: what the one JSON reader (engine/model/json_reader.hpp, behind
// Json::parse) refuses, and reading its numbers as integers without undefined behaviour -- for
// documents glint did not necessarily write (baselines, journals, an --isolate child's pipe).
#pragma once

#include <limits>
#include <stdexcept>
#include <string>

namespace glint::engine {

// Arrays and objects nested deeper are refused; glint's own documents nest 8 levels deep.
inline constexpr int kMaxJsonDepth = 64;

// Every refusal of the reader: malformed text, or nesting beyond kMaxJsonDepth (too_deep).
struct JsonReadError : std::runtime_error {
    JsonReadError(const std::string& what, bool deep) : std::runtime_error(what), too_deep(deep) {}
    bool too_deep;
};

// A JSON number read as an integer of type T: clamped to T's range, nan as 0 (casting an
// out-of-range double is undefined behaviour).
template <class T>
T json_integer(double v) {
    if (!(v > static_cast<double>(std::numeric_limits<T>::lowest())))
        return v == v ? std::numeric_limits<T>::lowest() : T{};
    if (!(v < static_cast<double>(std::numeric_limits<T>::max())))
        return std::numeric_limits<T>::max();
    return static_cast<T>(v);
}

}  // namespace glint::engine
