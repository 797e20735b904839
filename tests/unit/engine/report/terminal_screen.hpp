// tests/unit/engine/report/terminal_screen.hpp: a minimal terminal emulator for the live
// table's tests. It understands exactly what a live table may send — text, '\n' (as CR LF,
// like a tty with ONLCR), '\r', ESC[<n>A (cursor up), ESC[2K (erase line), ESC[2m / ESC[0m
// (dim on / off) — and records any other escape sequence, so tests can insist there is none.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace glint::engine::report::testing {

class TerminalScreen {
  public:
    void feed(std::string_view bytes) {
        for (std::size_t i = 0; i < bytes.size();) {
            char c = bytes[i];
            if (c == '\x1b') {
                i = escape(bytes, i);
            } else if (c == '\n') {
                ++row_;
                col_ = 0;
                ++i;
            } else if (c == '\r') {
                col_ = 0;
                ++i;
            } else {
                std::size_t j = i + 1;
                while (j < bytes.size() && (static_cast<unsigned char>(bytes[j]) & 0xC0) == 0x80)
                    ++j;
                put(std::string(bytes.substr(i, j - i)));
                i = j;
            }
        }
    }

    // The screen's text, one string per line, trailing empty lines dropped.
    std::vector<std::string> lines() const {
        std::vector<std::string> out;
        for (const auto& row : rows_) {
            std::string line;
            for (const auto& cell : row) line += cell.glyph;
            out.push_back(line);
        }
        while (!out.empty() && out.back().empty()) out.pop_back();
        return out;
    }

    // Whether any glyph of line `index` is dim.
    bool is_dim(std::size_t index) const {
        if (index >= rows_.size()) return false;
        for (const auto& cell : rows_[index])
            if (cell.dim) return true;
        return false;
    }

    // Whether every glyph of line `index` is dim.
    bool all_dim(std::size_t index) const {
        if (index >= rows_.size() || rows_[index].empty()) return false;
        for (const auto& cell : rows_[index])
            if (!cell.dim) return false;
        return true;
    }

    const std::vector<std::string>& unknown_escapes() const { return unknown_; }
    // The farthest the cursor ever moved up in one run of cursor-up sequences.
    std::size_t max_cursor_up() const { return max_up_; }

  private:
    struct Cell {
        std::string glyph;
        bool dim = false;
    };

    void put(std::string glyph) {
        if (rows_.size() <= row_) rows_.resize(row_ + 1);
        auto& row = rows_[row_];
        if (row.size() <= col_) row.resize(col_ + 1, Cell{" ", false});
        row[col_] = Cell{std::move(glyph), dim_};
        ++col_;
        up_run_ = 0;
    }

    std::size_t escape(std::string_view bytes, std::size_t i) {
        std::size_t j = i + 1;
        if (j >= bytes.size() || bytes[j] != '[') {
            unknown_.emplace_back(bytes.substr(i, 2));
            return j + 1;
        }
        ++j;
        std::size_t params = j;
        while (j < bytes.size() && !(bytes[j] >= 0x40 && bytes[j] <= 0x7E)) ++j;
        std::string param(bytes.substr(params, j - params));
        char final_byte = j < bytes.size() ? bytes[j] : '?';
        std::string whole(bytes.substr(i, j + 1 - i));
        int n = param.empty() ? 1 : std::atoi(param.c_str());
        if (final_byte == 'A') {
            row_ = row_ >= static_cast<std::size_t>(n) ? row_ - n : 0;
            up_run_ += static_cast<std::size_t>(n);
            if (up_run_ > max_up_) max_up_ = up_run_;
        } else if (final_byte == 'K' && param == "2") {
            if (row_ < rows_.size()) rows_[row_].clear();
        } else if (final_byte == 'm' && param == "2") {
            dim_ = true;
        } else if (final_byte == 'm' && (param == "0" || param.empty())) {
            dim_ = false;
        } else {
            unknown_.push_back(whole);
        }
        return j + 1;
    }

    std::vector<std::vector<Cell>> rows_;
    std::size_t row_ = 0;
    std::size_t col_ = 0;
    bool dim_ = false;
    std::size_t up_run_ = 0;
    std::size_t max_up_ = 0;
    std::vector<std::string> unknown_;
};

// A FILE* (std::tmpfile: binary, removed when closed; every OS has it) whose new output can be
// fetched after each call.
class CapturedFile {
  public:
    CapturedFile() : file_(std::tmpfile()) {}
    ~CapturedFile() {
        if (file_) std::fclose(file_);
    }
    CapturedFile(const CapturedFile&) = delete;
    CapturedFile& operator=(const CapturedFile&) = delete;

    std::FILE* file() { return file_; }
    // Everything written since the previous call.
    std::string take_new() {
        std::string out = read_from(consumed_);
        consumed_ += static_cast<long>(out.size());
        return out;
    }
    std::string all() { return read_from(0); }

  private:
    // The bytes from offset `from` to the end; the file is left positioned at its end.
    std::string read_from(long from) {
        std::fflush(file_);
        std::fseek(file_, 0, SEEK_END);
        const long end = std::ftell(file_);
        std::string out(static_cast<std::size_t>(end > from ? end - from : 0), '\0');
        std::fseek(file_, from, SEEK_SET);
        out.resize(std::fread(out.data(), 1, out.size(), file_));
        std::fseek(file_, 0, SEEK_END);
        return out;
    }

    std::FILE* file_ = nullptr;
    long consumed_ = 0;
};

}  // namespace glint::engine::report::testing
