#include "engine/profile/stacks.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

namespace glint::engine::profile {

std::string module_basename(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

Status symbolization_status(os::Symbolizer& symbols) {
    const auto self = reinterpret_cast<std::uint64_t>(&symbolization_status);
    const os::Symbolized s = symbols.lookup(self);
    const bool named = !s.frames.empty() &&
                       s.frames.back().function.find("symbolization_status") != std::string::npos;
    const bool lines = named && s.frames.front().line != 0;
    if (s.module.empty())  // the address space itself could not be read
        return {
            "symbolization", Status::State::unavailable,
            "no mapped file holds glint's own code, so profiles cannot name anything" +
                (symbols.debug_info_available() ? std::string() : "; " + symbols.debug_info_how()),
            ""};
    if (!named) {
        std::string why = "no symbol names its address in " + s.module;
        for (const auto& m : symbols.modules())
            if (m.path == s.module && !m.note.empty()) why += " (" + m.note + ")";
        return {"symbolization", Status::State::degraded,
                "glint could not name one of its own functions: " + why +
                    "; profiles show module+offset",
                "profile an unstripped build (symbols), built with -g (lines)"};
    }
    std::string how =
        "the process's own address space (/proc/self/maps), ELF symbol tables "
        "(demangled)";
    if (symbols.debug_info_available())
        how += ", inline chains and source lines from DWARF through " + symbols.debug_info_how();
    else how += "; no inline chains or lines: " + symbols.debug_info_how();
    if (symbols.debug_info_available() && !lines)
        how += " (glint itself has no DWARF here: build with -g for lines)";
    return {"symbolization",
            symbols.debug_info_available() ? Status::State::available : Status::State::degraded,
            how, symbols.debug_info_available() ? "" : "apt-get install libdw1"};
}

StackBuilder::StackBuilder(os::Symbolizer& symbols, std::vector<std::uint64_t> entries)
    : symbols_(symbols) {
    code_.entries = std::move(entries);
}

StackBuilder::StackBuilder(os::Symbolizer& symbols, PassCode code)
    : symbols_(symbols), code_(std::move(code)) {}

namespace {
// A frame of the header-only loop glint instantiates around the case's code (run_batch,
// run_inputs, the BatchedInputs they inline: glint::detail, a "void " return type aside).
bool loop_wrapper_frame(const std::string& function) {
    std::string_view f = function;
    if (f.starts_with("void ")) f.remove_prefix(5);
    return f.starts_with("glint::detail::");
}

bool among(const std::vector<std::uint64_t>& v, std::uint64_t a) {
    return std::find(v.begin(), v.end(), a) != v.end();
}
}  // namespace

SampleOwner StackBuilder::owner(const os::SampleRecord& sample) const {
    const auto& user = sample.user_stack;
    if (user.empty()) return SampleOwner::the_case;
    if (code_.pass.contains(user[0]) || code_.toggle.contains(user[0])) return SampleOwner::glint;
    // Beyond the innermost address only the toggles' code is looked for: a case without frame
    // pointers leaves the entry's caller, the pass's code, as its second address.
    for (std::size_t i = 1; i < user.size(); ++i) {
        if (among(code_.entries, user[i])) return SampleOwner::the_case;
        if (among(code_.after, user[i])) return SampleOwner::after;
        if (code_.toggle.contains(user[i])) return SampleOwner::glint;
    }
    return SampleOwner::the_case;
}

const os::Symbolized& StackBuilder::resolve(std::uint64_t address) {
    auto it = cache_.find(address);
    if (it == cache_.end()) it = cache_.emplace(address, symbols_.lookup(address)).first;
    return it->second;
}

SampleOwner StackBuilder::add(const os::SampleRecord& sample, Profile& profile) {
    const SampleOwner who = owner(sample);
    if (who == SampleOwner::glint) ++dropped_glint_;
    if (who == SampleOwner::after) ++dropped_after_;
    if (who != SampleOwner::the_case) return who;
    stack_.clear();
    if (sample.in_kernel) stack_.push_back(FrameAt{profile.intern({"[kernel]", "", false}), "", 0});
    bool complete = false;
    const auto& user = sample.user_stack;
    for (std::size_t i = 0; i < user.size(); ++i) {
        // The user ip of a user-mode sample is the instruction itself; every other entry (and
        // the user ip of a kernel sample, where the system call returns to) follows a call.
        const bool is_return = i > 0 || sample.in_kernel;
        if (i > 0 && among(code_.entries, user[i])) {
            complete = true;
            break;
        }
        if (i > 0 && code_.pass.contains(user[i])) break;  // the entry skipped: incomplete
        const os::Symbolized& s = resolve(user[i] - (is_return ? 1 : 0));
        const std::string unnamed =
            s.module.empty() ? std::string("[unknown]")
                             : fmt::format("{}+{:#x}", module_basename(s.module), s.offset);
        if (s.frames.empty())
            stack_.push_back(FrameAt{profile.intern({unnamed, s.module, false}), "", 0});
        for (const os::CodeFrame& f : s.frames) {
            const FrameName name{f.function.empty() ? unnamed : f.function, s.module, f.inlined};
            stack_.push_back(FrameAt{profile.intern(name), f.file, f.line});
        }
    }
    // The outermost frames of glint's loop wrapper are left out: the case's code is the root
    // (a sample in the loop itself keeps its innermost frame, the loop's own cost).
    while (stack_.size() > 1 && loop_wrapper_frame(profile.name(stack_.back().id).function))
        stack_.pop_back();
    if (stack_.empty())  // no user part recorded for a user-mode sample: its ip alone
        stack_.push_back(FrameAt{profile.intern({"[unknown]", "", false}), "", 0});
    profile.add(stack_, complete);
    return who;
}

}  // namespace glint::engine::profile
