// engine/profile/stacks.hpp: raw samples into profile stacks.
//
// Symbolizes every address once (the symbolizer's answers are cached by address for the run),
// expands each into its inline chain, and cuts the stack where it enters the case: the walk
// from the sampled function up through its callers stops at the return address of one of the
// pass's calls into the case (sampled_pass.hpp: entry_returns(); the glint frames beneath the
// case are not the case's).
// A return address is symbolized one byte back, so it names the call, not the next statement.
// A sample taken in the kernel gets a "[kernel]" frame innermost, above the user stack that
// entered it. An address nothing names becomes "module+0xoffset" (stripped code) or
// "[unknown]" (no file-backed mapping).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "engine/model/status.hpp"
#include "engine/profile/profile.hpp"
#include "os/sampling.hpp"
#include "os/symbols.hpp"

namespace glint::engine::profile {

class StackBuilder {
public:
    // `entries`: the return addresses of the calls into the case (entry_returns()).
    StackBuilder(os::Symbolizer& symbols, std::vector<std::uint64_t> entries);

    // Adds `sample` to `profile`.
    void add(const os::SampleRecord& sample, Profile& profile);

    // The frames (innermost first) and containing-symbol start of one code address.
    const os::Symbolized& resolve(std::uint64_t address);

private:
    os::Symbolizer& symbols_;
    std::vector<std::uint64_t> entries_;
    std::unordered_map<std::uint64_t, os::Symbolized> cache_;
    std::vector<FrameAt> stack_;  // reused per sample
};

// The symbolization capability: looks up one of glint's own functions and says what named it
// (ELF symbols, DWARF through libdw) or why it could not be named.
Status symbolization_status(os::Symbolizer& symbols);

// The last path component of a module path ("/usr/lib/libc.so.6" -> "libc.so.6").
std::string module_basename(const std::string& path);

}  // namespace glint::engine::profile
