#include "engine/model/json.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

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

}  // namespace

std::string Json::dump(int indent) const {
    std::string out;
    dump_value(out, *this, indent, 0);
    return out;
}

}  // namespace glint::engine
