// The hostile fixture's runs and the terminal check, shared by the e2e files that use them
// (hostile_names_test.cpp on every OS, hostile_names_linux_test.cpp for the Linux-only paths).
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/model/sanitize.hpp"
#include "support/process.hpp"

namespace glint::test::hostile {

// Terminal-safe: valid UTF-8, no C0 byte but the line ends, no DEL, no C1 code point.
inline void check_terminal(const std::string& text, const std::string& where) {
    INFO(where);
    CHECK(glint::engine::sanitize::is_valid_utf8(text));
    bool clean = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
        if ((c < 0x20 && c != '\n') || c == 0x7F || (c == 0xC2 && next >= 0x80 && next <= 0x9F))
            clean = false;
    }
    CHECK_MESSAGE(clean, text);
}

inline std::vector<std::string> bench(const std::vector<std::string>& extra) {
    std::vector<std::string> args{fixture_path("hostile"), "--bench", "--bench-min-time=0.05"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

}  // namespace glint::test::hostile
