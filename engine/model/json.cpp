#include "engine/model/json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "engine/model/json_limits.hpp"
#include "engine/model/sanitize.hpp"

namespace glint::engine {

Json& Json::operator[](std::string_view key) {
    if (is_null()) value_ = Object{};
    auto& members = std::get<Object>(value_);
    for (auto& [k, v] : members)
        if (k == key) return v;
    members.emplace_back(std::string(key), Json{});
    return members.back().second;
}

const Json* Json::find(std::string_view key) const {
    if (!is_object()) return nullptr;
    for (const auto& [k, v] : as_object())
        if (k == key) return &v;
    return nullptr;
}

const Json& Json::at(std::string_view key) const {
    const Json* found = find(key);
    if (!found) {
        std::fprintf(stderr, "glint: internal error: JSON member '%.*s' missing\n",
                     static_cast<int>(key.size()), key.data());
        std::abort();
    }
    return *found;
}

void Json::push_back(Json value) {
    if (is_null()) value_ = Array{};
    std::get<Array>(value_).push_back(std::move(value));
}

std::size_t Json::size() const {
    if (is_array()) return as_array().size();
    if (is_object()) return as_object().size();
    return 0;
}

std::string format_json_number(double value) {
    if (!std::isfinite(value)) return "null";
    char buf[64];
    if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0) {
        std::snprintf(buf, sizeof buf, "%.0f", value);
        if (std::string_view(buf) == "-0") return "0";
    } else {
        std::snprintf(buf, sizeof buf, "%.6g", value);
    }
    return buf;
}

namespace {

void dump_string(std::string& out, const std::string& s) { sanitize::append_json_string(out, s); }

void newline(std::string& out, int indent, int depth) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * depth), ' ');
}

void dump_value(std::string& out, const Json& v, int indent, int depth);

void dump_value(std::string& out, const Json& v, int indent, int depth) {
    if (v.is_null()) {
        out += "null";
    } else if (v.is_bool()) {
        out += v.as_bool() ? "true" : "false";
    } else if (v.is_number()) {
        out += format_json_number(v.as_number());
    } else if (v.is_string()) {
        dump_string(out, v.as_string());
    } else if (v.is_array()) {
        const auto& a = v.as_array();
        if (a.empty()) {
            out += "[]";
            return;
        }
        // Arrays of scalars stay on one line: sample lists would otherwise dominate the file.
        bool scalars = true;
        for (const auto& e : a) scalars = scalars && !e.is_array() && !e.is_object();
        out += '[';
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (i) out += scalars || indent < 0 ? (indent < 0 ? "," : ", ") : ",";
            if (!scalars) newline(out, indent, depth + 1);
            dump_value(out, a[i], indent, depth + 1);
        }
        if (!scalars) newline(out, indent, depth);
        out += ']';
    } else {
        const auto& o = v.as_object();
        if (o.empty()) {
            out += "{}";
            return;
        }
        out += '{';
        for (std::size_t i = 0; i < o.size(); ++i) {
            if (i) out += ',';
            newline(out, indent, depth + 1);
            dump_string(out, o[i].first);
            out += indent < 0 ? ":" : ": ";
            dump_value(out, o[i].second, indent, depth + 1);
        }
        newline(out, indent, depth);
        out += '}';
    }
}

class Parser {
public:
    explicit Parser(std::string_view text) : s_(text) {}

    Json document() {
        Json v = value();
        skip_ws();
        if (pos_ != s_.size()) fail("trailing characters");
        return v;
    }

private:
    [[noreturn]] void fail(const char* what) {
        throw std::runtime_error("JSON parse error at byte " + std::to_string(pos_) + ": " + what);
    }
    void skip_ws() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' ||
                                    s_[pos_] == '\r'))
            ++pos_;
    }
    bool consume(std::string_view word) {
        if (s_.substr(pos_, word.size()) != word) return false;
        pos_ += word.size();
        return true;
    }
    // Counts the open arrays and objects around the value being read.
    struct Nesting {
        explicit Nesting(Parser& p) : p_(p) {
            if (++p_.depth_ > kMaxJsonParseDepth)
                throw JsonTooDeep("JSON parse error at byte " + std::to_string(p_.pos_) +
                                  ": nested deeper than " + std::to_string(kMaxJsonParseDepth) +
                                  " arrays and objects (glint writes far fewer)");
        }
        ~Nesting() { --p_.depth_; }
        Parser& p_;
    };
    Json value() {
        skip_ws();
        if (pos_ >= s_.size()) fail("unexpected end");
        char c = s_[pos_];
        if (c == '{') {
            const Nesting nest(*this);
            return object();
        }
        if (c == '[') {
            const Nesting nest(*this);
            return array();
        }
        if (c == '"') return Json(string());
        if (consume("null")) return Json{};
        if (consume("true")) return Json(true);
        if (consume("false")) return Json(false);
        return number();
    }
    Json number() {
        std::size_t start = pos_;
        while (pos_ < s_.size() && std::string_view("+-0123456789.eE").find(s_[pos_]) !=
                                       std::string_view::npos)
            ++pos_;
        if (start == pos_) fail("expected a value");
        std::string text(s_.substr(start, pos_ - start));
        char* end = nullptr;
        double d = std::strtod(text.c_str(), &end);
        if (end != text.c_str() + text.size()) fail("bad number");
        return Json(d);
    }
    std::string string() {
        ++pos_;  // opening quote
        std::string out;
        while (true) {
            if (pos_ >= s_.size()) fail("unterminated string");
            char c = s_[pos_++];
            if (c == '"') return out;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (pos_ >= s_.size()) fail("unterminated escape");
            char e = s_[pos_++];
            switch (e) {
                case '"': out += '"'; break;
                case '\\': out += '\\'; break;
                case '/': out += '/'; break;
                case 'n': out += '\n'; break;
                case 'r': out += '\r'; break;
                case 't': out += '\t'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'u': {
                    if (pos_ + 4 > s_.size()) fail("short \\u escape");
                    unsigned cp = std::stoul(std::string(s_.substr(pos_, 4)), nullptr, 16);
                    pos_ += 4;
                    if (cp < 0x80) {
                        out += static_cast<char>(cp);
                    } else if (cp < 0x800) {
                        out += static_cast<char>(0xC0 | (cp >> 6));
                        out += static_cast<char>(0x80 | (cp & 0x3F));
                    } else {
                        out += static_cast<char>(0xE0 | (cp >> 12));
                        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
                        out += static_cast<char>(0x80 | (cp & 0x3F));
                    }
                    break;
                }
                default: fail("bad escape");
            }
        }
    }
    Json array() {
        ++pos_;
        Json out = Json::array();
        skip_ws();
        if (pos_ < s_.size() && s_[pos_] == ']') {
            ++pos_;
            return out;
        }
        while (true) {
            out.push_back(value());
            skip_ws();
            if (pos_ < s_.size() && s_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (pos_ < s_.size() && s_[pos_] == ']') {
                ++pos_;
                return out;
            }
            fail("expected , or ]");
        }
    }
    Json object() {
        ++pos_;
        Json out = Json::object();
        skip_ws();
        if (pos_ < s_.size() && s_[pos_] == '}') {
            ++pos_;
            return out;
        }
        while (true) {
            skip_ws();
            if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a member name");
            std::string key = string();
            skip_ws();
            if (pos_ >= s_.size() || s_[pos_] != ':') fail("expected :");
            ++pos_;
            out.as_object().emplace_back(std::move(key), value());
            skip_ws();
            if (pos_ < s_.size() && s_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (pos_ < s_.size() && s_[pos_] == '}') {
                ++pos_;
                return out;
            }
            fail("expected , or }");
        }
    }

    std::string_view s_;
    std::size_t pos_ = 0;
    int depth_ = 0;
};

}  // namespace

std::string Json::dump(int indent) const {
    std::string out;
    dump_value(out, *this, indent, 0);
    return out;
}

Json Json::parse(std::string_view text) { return Parser(text).document(); }

}  // namespace glint::engine
