#include "engine/model/json_reader.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "engine/model/sanitize.hpp"

namespace glint::engine {
namespace {

// Builds a Json from nlohmann's parse events: linear, no recursion (the open containers are a
// stack of pointers; a container moves only when a sibling of it is added, after it closed).
class JsonBuilder final : public nlohmann::json_sax<nlohmann::json> {
  public:
    Json take() { return std::move(root_); }

    bool null() override { return put(Json{}); }
    bool boolean(bool v) override { return put(Json(v)); }
    bool number_integer(number_integer_t v) override { return put(Json(static_cast<double>(v))); }
    bool number_unsigned(number_unsigned_t v) override { return put(Json(static_cast<double>(v))); }
    bool number_float(number_float_t v, const string_t&) override { return put(Json(v)); }
    bool string(string_t& v) override { return put(Json(std::move(v))); }
    bool binary(binary_t&) override { return false; }  // never produced from JSON text
    bool start_object(std::size_t) override { return open(Json::object()); }
    bool key(string_t& k) override {
        open_.back()->as_object().emplace_back().first = std::move(k);  // its value: null
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(Json::array()); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t, const std::string&,
                     const nlohmann::detail::exception& e) override {
        throw JsonReadError(sanitize::terminal(e.what()), false);  // it quotes the input
    }

  private:
    // Where the next value goes: the root, an array's new element, or the member just keyed.
    Json* slot() {
        if (open_.empty()) return &root_;
        Json* at = open_.back();
        if (at->is_array()) {
            at->as_array().emplace_back();
            return &at->as_array().back();
        }
        return &at->as_object().back().second;
    }
    bool put(Json v) {
        *slot() = std::move(v);
        return true;
    }
    bool open(Json container) {
        Json* at = slot();
        *at = std::move(container);
        open_.push_back(at);
        return true;
    }
    bool close() {
        open_.pop_back();
        return true;
    }

    Json root_;
    std::vector<Json*> open_;
};

}  // namespace

void check_json_depth(std::string_view text) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                throw JsonReadError("JSON nests deeper than " + std::to_string(kMaxJsonDepth) +
                                        " levels at byte " + std::to_string(i) +
                                        " (glint writes far fewer)",
                                    true);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
}

nlohmann::json read_json_tree(std::string_view text) {
    check_json_depth(text);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw JsonReadError(sanitize::terminal(e.what()), false);  // it quotes the input
    }
}

Json Json::parse(std::string_view text) {
    check_json_depth(text);
    JsonBuilder builder;
    if (!nlohmann::json::sax_parse(text, &builder))
        throw JsonReadError("JSON holds binary data", false);
    return builder.take();
}

}  // namespace glint::engine
