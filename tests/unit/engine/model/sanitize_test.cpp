#include <doctest/doctest.h>

#include <string>

#include "engine/model/json.hpp"
#include "engine/model/row.hpp"
#include "engine/model/sanitize.hpp"

using namespace glint::engine;

namespace {

bool has_control_byte(const std::string& text) {
    for (unsigned char c : text)
        if (c < 0x20 || c == 0x7F) return true;
    return text.find("\xC2\x80") != std::string::npos || text.find("\xC2\x9B") != std::string::npos;
}

}  // namespace

TEST_CASE("sanitize: valid_utf8 keeps valid text and writes U+FFFD for each invalid byte") {
    CHECK(sanitize::valid_utf8("bm/µs — ✓ \xF0\x9F\x98\x80") == "bm/µs — ✓ \xF0\x9F\x98\x80");
    CHECK(sanitize::valid_utf8("a\xFF"
                               "b") ==
          "a\xEF\xBF\xBD"
          "b");
    CHECK(sanitize::valid_utf8("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
    CHECK(sanitize::valid_utf8("\xED\xA0\x80") ==
          "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");                            // surrogate
    CHECK(sanitize::valid_utf8("\xF4\x90\x80\x80").size() == 12);             // above U+10FFFF
    CHECK(sanitize::valid_utf8("x\xE2\x82") == "x\xEF\xBF\xBD\xEF\xBF\xBD");  // cut sequence
    CHECK(sanitize::is_valid_utf8(sanitize::valid_utf8("\x80\xC3(\xF8")));
    CHECK_FALSE(sanitize::is_valid_utf8("\x80"));
}

TEST_CASE("sanitize: terminal text shows every control character as a visible picture") {
    CHECK(sanitize::terminal("a\x1b[2Jb") == "a\xE2\x90\x9B[2Jb");  // ESC -> U+241B
    CHECK(sanitize::terminal("x\ny\rz\t\a") == "x\xE2\x90\x8Ay\xE2\x90\x8Dz \xE2\x90\x87");
    CHECK(sanitize::terminal("\x7F") == "\xE2\x90\xA1");  // DEL -> U+2421
    CHECK(sanitize::terminal("\xC2\x9B"
                             "31m") ==
          "\xEF\xBF\xBD"
          "31m");  // C1 CSI -> U+FFFD
    CHECK(sanitize::terminal("\x9B"
                             "31m") ==
          "\xEF\xBF\xBD"
          "31m");  // a raw 8-bit CSI
    const std::string osc8 = "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\";
    CHECK_FALSE(has_control_byte(sanitize::terminal(osc8)));
    CHECK(sanitize::terminal("plain/name µs") == "plain/name µs");
    CHECK(sanitize::terminal(sanitize::terminal("a\x1b")) == sanitize::terminal("a\x1b"));
}

TEST_CASE(
    "hostile: a right-to-left override or another invisible format character is shown by name, "
    "so no name displays reversed or hidden") {
    const std::string rlo = "\xE2\x80\xAE";  // U+202E
    CHECK(sanitize::terminal("exe." + rlo + "gpj") == "exe.<U+202E>gpj");
    CHECK(sanitize::html("a" + rlo + "b") == "a&lt;U+202E&gt;b");
    CHECK(sanitize::markdown("a" + rlo + "b") == "a&lt;U+202E&gt;b");
    CHECK(sanitize::csv(rlo) == "<U+202E>");
    // LRI..PDI, LRM, RLM, ALM, zero-width space, word joiner, BOM; what is near them stays.
    CHECK(sanitize::terminal("\xE2\x81\xA6\xE2\x81\xA9\xE2\x80\x8E\xE2\x80\x8F\xD8\x9C") ==
          "<U+2066><U+2069><U+200E><U+200F><U+061C>");
    CHECK(sanitize::terminal("\xE2\x80\x8B\xE2\x81\xA0\xEF\xBB\xBF") == "<U+200B><U+2060><U+FEFF>");
    CHECK(sanitize::terminal("\xE2\x80\x94 \xE2\x80\xA9 \xD8\x9B") ==
          "\xE2\x80\x94 \xE2\x80\xA9 \xD8\x9B");
    CHECK(sanitize::terminal(sanitize::terminal(rlo)) == sanitize::terminal(rlo));
    // The document keeps the name as it is: a row is still found by its own spelling.
    std::string json;
    sanitize::append_json_string(json, rlo);
    CHECK(json == "\"" + rlo + "\"");
}

TEST_CASE("sanitize: markdown cells carry no live markup and no cell break") {
    CHECK(sanitize::markdown("a|b") == "a\\|b");
    CHECK(sanitize::markdown("<!-- x") == "&lt;!-- x");
    CHECK(sanitize::markdown("</td><b>") == "&lt;/td&gt;&lt;b&gt;");
    CHECK(sanitize::markdown("[x](http://e) *y* `z` ~w~ \\") ==
          "\\[x\\](http://e) \\*y\\* \\`z\\` \\~w\\~ \\\\");
    CHECK(sanitize::markdown("a&b_c") == "a&amp;b_c");  // intraword: inert
    CHECK(sanitize::markdown("_em_ x_ _y") == "\\_em\\_ x\\_ \\_y");
    CHECK(sanitize::markdown("l1\nl2") == "l1\xE2\x90\x8Al2");
}

TEST_CASE("sanitize: csv cells neutralise formulas and quote separators") {
    CHECK(sanitize::csv("plain") == "plain");
    CHECK(sanitize::csv("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"");
    CHECK(sanitize::csv("+cmd") == "'+cmd");
    CHECK(sanitize::csv("@x") == "'@x");
    CHECK(sanitize::csv("-1+1") == "'-1+1");
    CHECK(sanitize::csv("a,b") == "\"a,b\"");
    CHECK(sanitize::csv(" lead") == "\" lead\"");
    CHECK(sanitize::csv("a\nb") ==
          "a\xE2\x90\x8A"
          "b");  // one record per line
    CHECK(sanitize::csv("") == "");
}

TEST_CASE("sanitize: html text and attributes escape markup and show controls") {
    CHECK(sanitize::html("<script>&\"'") == "&lt;script&gt;&amp;&quot;&#39;");
    CHECK(sanitize::html("a\x1b"
                         "b\xFF") ==
          "a\xE2\x90\x9B"
          "b\xEF\xBF\xBD");
}

TEST_CASE("sanitize: a JSON string is valid UTF-8 with every control escaped") {
    std::string out;
    sanitize::append_json_string(out, "a\"\\\n\x1b\x7F\xC2\x9B\xFF\xE2\x9C\x93");
    CHECK(out == "\"a\\\"\\\\\\n\\u001b\\u007f\\u009b\xEF\xBF\xBD\xE2\x9C\x93\"");
    // What glint writes, glint reads back: the same (replaced) name.
    const Json back = Json::parse(Json("bm/\xFF\x1b").dump());
    CHECK(back.as_string() == "bm/\xEF\xBF\xBD\x1b");
}

TEST_CASE("sanitize: the invalid UTF-8 note counts names and shows the first safely") {
    CHECK(sanitize::invalid_utf8_note({"a", "b/µ"}).empty());
    const std::string note = sanitize::invalid_utf8_note({"ok", "bad\xFF\x1b", "x\xC0"});
    CHECK(note.find("2 case names are not valid UTF-8") == 0);
    CHECK(note.find("bad\xEF\xBF\xBD\xE2\x90\x9B") != std::string::npos);
}

TEST_CASE("sanitize: a row and its read-back document row share one identity") {
    const Labels labels = {{"k\xFF", "v\xFE"}};
    CHECK(identity_key("r\xFF", "bm/\xFF", labels) ==
          identity_key("r\xEF\xBF\xBD", "bm/\xEF\xBF\xBD", {{"k\xEF\xBF\xBD", "v\xEF\xBF\xBD"}}));
    CHECK(identity_key("r", "bm/\xFF", {}) != identity_key("r", "bm/", {}));
}
