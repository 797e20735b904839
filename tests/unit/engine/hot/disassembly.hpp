// Reading the code the compiler emitted for a function of this test binary (objdump), and
// finding its fast path: the path from the entry to a `ret` that executes no call.
//
// The control-flow model is the one objdump shows: a conditional jump continues at its target
// or at the next instruction, `jmp` at its target, `call` continues after the call (but a path
// that contains one is not a fast path), `ret` ends. A path never revisits an instruction, so a
// backward jump (the seqlock's retry) is never taken on it: the fast path is the read that
// succeeds first time.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.hpp"

namespace glint::test {

struct Instruction {
    std::uint64_t address = 0;
    std::string mnemonic;  // prefixes (rep, lock, notrack, ...) dropped
    std::string operands;
    std::optional<std::uint64_t> target;  // direct jump/call target

    bool is_call() const { return mnemonic.rfind("call", 0) == 0; }
    bool is_ret() const { return mnemonic.rfind("ret", 0) == 0; }
    bool is_jump() const { return mnemonic == "jmp" || mnemonic == "jmpq"; }
    bool is_conditional() const { return mnemonic[0] == 'j' && !is_jump(); }
};

inline std::string find_in_path(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const std::string candidate = dir + "/" + program;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return {};
}

inline std::string self_executable() {
    char buffer[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
    return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
}

// The instructions of `symbol` in this executable; empty (with `error`) when objdump is
// missing or does not know the symbol.
inline std::vector<Instruction> disassemble_one(const std::string& symbol, std::string& error) {
    const std::string objdump = find_in_path("objdump");
    if (objdump.empty()) {
        error = "objdump (binutils) not found in PATH";
        return {};
    }
    const ProcessResult r = run_process(
        {objdump, "-d", "--no-show-raw-insn", "--disassemble=" + symbol, self_executable()});
    if (r.exit_code != 0) {
        error = "objdump failed: " + r.err;
        return {};
    }
    std::vector<Instruction> out;
    std::stringstream lines(r.out);
    std::string line;
    bool inside = false;
    while (std::getline(lines, line)) {
        if (line.find("<" + symbol + ">:") != std::string::npos) {
            inside = true;
            continue;
        }
        if (!inside) continue;
        if (line.empty()) break;
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos || line.find('<') < colon) continue;
        Instruction ins;
        ins.address = std::stoull(line.substr(0, colon), nullptr, 16);
        std::stringstream rest(line.substr(colon + 1));
        std::string word;
        static const std::set<std::string> kPrefixes = {"rep",   "repz",    "repnz",  "repe",
                                                        "repne", "lock",    "data16", "cs",
                                                        "ds",    "notrack", "bnd"};
        while (rest >> word && kPrefixes.count(word)) {}
        ins.mnemonic = word;
        std::getline(rest, ins.operands);
        const std::size_t start = ins.operands.find_first_not_of(' ');
        ins.operands = start == std::string::npos ? "" : ins.operands.substr(start);
        if ((ins.mnemonic[0] == 'j' || ins.is_call()) && !ins.operands.empty() &&
            ins.operands[0] != '*') {
            ins.target = std::stoull(ins.operands, nullptr, 16);
        }
        if (!ins.mnemonic.empty()) out.push_back(ins);
    }
    if (out.empty()) error = "objdump shows no instructions for " + symbol;
    return out;
}

// `symbol` and, when the compiler split its unlikely paths into `symbol.cold`, that part too
// (a function's out-of-line blocks belong to its control flow).
inline std::vector<Instruction> disassemble(const std::string& symbol, std::string& error) {
    std::vector<Instruction> code = disassemble_one(symbol, error);
    if (code.empty()) return code;
    std::string ignored;
    for (const Instruction& ins : disassemble_one(symbol + ".cold", ignored)) code.push_back(ins);
    return code;
}

class FastPath {
  public:
    explicit FastPath(std::vector<Instruction> code) : code_(std::move(code)) {
        for (std::size_t i = 0; i < code_.size(); ++i) at_[code_[i].address] = i;
        std::vector<std::size_t> path;
        std::set<std::size_t> on_path;
        if (!code_.empty()) found_ = search(0, path, on_path);
    }

    bool found() const { return found_; }
    // Instruction indices of the fast path, entry to ret.
    const std::vector<std::size_t>& path() const { return path_; }
    const Instruction& instruction(std::size_t index) const { return code_[index]; }
    std::size_t count(const std::string& mnemonic) const {
        std::size_t n = 0;
        for (std::size_t i : path_) n += code_[i].mnemonic == mnemonic;
        return n;
    }

    // Every conditional branch on the path, by the direction the path does not take, is either
    // a retry (straight back to an earlier instruction of the path) or a jump to a fallback (a call
    // is reachable from there without rejoining the path first). Any other branch (one that skips
    // part of the path, or picks between two ways of computing the same thing) is reported:
    // its description, or "" when there is none.
    std::string unexplained_branch() const {
        const std::set<std::size_t> on_path(path_.begin(), path_.end());
        for (std::size_t k = 0; k + 1 < path_.size(); ++k) {
            const Instruction& ins = code_[path_[k]];
            if (!ins.is_conditional()) continue;
            const std::size_t next_on_path = path_[k + 1];
            const std::optional<std::size_t> taken = index_of(ins.target);
            const std::size_t fallthrough = path_[k] + 1;
            const std::optional<std::size_t> other =
                next_on_path == fallthrough ? taken : std::optional<std::size_t>(fallthrough);
            if (!other) return describe(ins) + " (target outside the function)";
            const bool retry = rejoins_at_or_before(*other, k);
            std::set<std::size_t> seen = on_path;
            if (!retry && !reaches_call(*other, seen)) return describe(ins);
        }
        return "";
    }

    std::string listing() const {
        std::string out;
        for (std::size_t i : path_) out += "  " + describe(code_[i]) + "\n";
        return out;
    }

  private:
    static std::string describe(const Instruction& ins) {
        std::stringstream s;
        s << std::hex << ins.address << ": " << ins.mnemonic << " " << ins.operands;
        return s.str();
    }

    std::optional<std::size_t> index_of(std::optional<std::uint64_t> address) const {
        if (!address) return std::nullopt;
        const auto it = at_.find(*address);
        if (it == at_.end()) return std::nullopt;
        return it->second;
    }

    std::vector<std::size_t> successors(std::size_t i) const {
        const Instruction& ins = code_[i];
        if (ins.is_ret()) return {};
        if (ins.is_jump()) {
            if (auto t = index_of(ins.target)) return {*t};
            return {};
        }
        std::vector<std::size_t> next;
        if (i + 1 < code_.size()) next.push_back(i + 1);
        if (ins.is_conditional())
            if (auto t = index_of(ins.target)) next.push_back(*t);
        return next;
    }

    bool search(std::size_t i, std::vector<std::size_t>& path, std::set<std::size_t>& on_path) {
        if (on_path.count(i) || code_[i].is_call()) return false;
        path.push_back(i);
        on_path.insert(i);
        if (code_[i].is_ret()) {
            path_ = path;
            return true;
        }
        for (std::size_t next : successors(i))
            if (search(next, path, on_path)) return true;
        path.pop_back();
        on_path.erase(i);
        return false;
    }

    // Whether straight-line code from `i` (no conditional branch, call or ret; jumps followed)
    // comes back to the path at or before its k-th instruction: a loop back edge.
    bool rejoins_at_or_before(std::size_t i, std::size_t k) const {
        for (int steps = 0; steps < 64; ++steps) {
            for (std::size_t p = 0; p < path_.size(); ++p)
                if (path_[p] == i) return p <= k;
            const Instruction& ins = code_[i];
            if (ins.is_conditional() || ins.is_call() || ins.is_ret()) return false;
            const std::vector<std::size_t> next = successors(i);
            if (next.size() != 1) return false;
            i = next[0];
        }
        return false;
    }

    // `seen` starts as the path: a search that steps back onto it has rejoined it.
    bool reaches_call(std::size_t i, std::set<std::size_t>& seen) const {
        if (!seen.insert(i).second) return false;
        if (code_[i].is_call()) return true;
        for (std::size_t next : successors(i))
            if (reaches_call(next, seen)) return true;
        return false;
    }

    std::vector<Instruction> code_;
    std::map<std::uint64_t, std::size_t> at_;
    std::vector<std::size_t> path_;
    bool found_ = false;
};

}  // namespace glint::test
