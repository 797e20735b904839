// engine/model/json.hpp: glint's JSON writer -- a small JSON value with deterministic output, for
// --bench-json, JSON meta contributed by tiers and the lines of journals and the --isolate pipe.
//
// Output contract: objects keep insertion order; integral numbers (|v| < 2^53) print as
// integers, others with 6 significant digits; nan and infinities print as null; strings are
// sanitize::append_json_string's: valid UTF-8 (U+FFFD for invalid bytes), controls escaped.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace glint::engine {

class Json {
  public:
    using Array = std::vector<Json>;
    using Object = std::vector<std::pair<std::string, Json>>;

    Json() = default;  // null
    Json(std::nullptr_t) {}
    Json(bool b) : value_(b) {}
    Json(double d) : value_(d) {}
    Json(int i) : value_(static_cast<double>(i)) {}
    Json(long i) : value_(static_cast<double>(i)) {}
    Json(long long i) : value_(static_cast<double>(i)) {}
    Json(unsigned i) : value_(static_cast<double>(i)) {}
    Json(unsigned long i) : value_(static_cast<double>(i)) {}
    Json(unsigned long long i) : value_(static_cast<double>(i)) {}
    Json(std::string s) : value_(std::move(s)) {}
    Json(std::string_view s) : value_(std::string(s)) {}
    Json(const char* s) : value_(std::string(s)) {}
    Json(Array a) : value_(std::move(a)) {}
    Json(Object o) : value_(std::move(o)) {}

    static Json object() { return Json(Object{}); }
    static Json array() { return Json(Array{}); }

    bool is_null() const { return std::holds_alternative<std::monostate>(value_); }
    bool is_bool() const { return std::holds_alternative<bool>(value_); }
    bool is_number() const { return std::holds_alternative<double>(value_); }
    bool is_string() const { return std::holds_alternative<std::string>(value_); }
    bool is_array() const { return std::holds_alternative<Array>(value_); }
    bool is_object() const { return std::holds_alternative<Object>(value_); }

    bool as_bool() const { return std::get<bool>(value_); }
    double as_number() const { return std::get<double>(value_); }
    const std::string& as_string() const { return std::get<std::string>(value_); }
    const Array& as_array() const { return std::get<Array>(value_); }
    const Object& as_object() const { return std::get<Object>(value_); }
    Array& as_array() { return std::get<Array>(value_); }
    Object& as_object() { return std::get<Object>(value_); }

    // Object access: operator[] inserts a null member when absent (turning null into {}).
    Json& operator[](std::string_view key);
    // Returns nullptr when absent or not an object.
    const Json* find(std::string_view key) const;
    const Json& at(std::string_view key) const;  // aborts when absent (programmer error)
    bool contains(std::string_view key) const { return find(key) != nullptr; }

    // Array append (turning null into []).
    void push_back(Json value);
    std::size_t size() const;

    // Serializes; indent < 0 gives one line.
    std::string dump(int indent = 2) const;

    // Reads a complete document through the one reader (engine/model/json_reader.hpp): members
    // in document order. Throws JsonReadError (engine/model/json_limits.hpp) on bad input.
    static Json parse(std::string_view text);

    friend bool operator==(const Json&, const Json&) = default;

  private:
    std::variant<std::monostate, bool, double, std::string, Array, Object> value_;
};

// The number formatting the contract above describes.
std::string format_json_number(double value);

}  // namespace glint::engine
