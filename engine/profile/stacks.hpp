// engine/profile/stacks.hpp: raw samples into profile stacks.
//
// Symbolizes every address once (the symbolizer's answers are cached by address for the run),
// expands each into its inline chain, and cuts the stack where it enters the case: the walk
// from the sampled function up through its callers stops at the return address of one of the
// pass's calls into the case (sampled_pass.hpp: entry_returns(); the glint frames beneath the
// case are not the case's).
// Samples that are not the case's are dropped and counted: glint's own (the innermost address
// in the pass's code or the sampler's toggles, or the toggles' code on the stack: the sampler
// is still enabled while its enable and disable calls run) and after()'s (a grouped window's
// call into after() on the stack). A stack that reaches none of these is the case's; one that
// reaches the pass's code without its entry (code without frame pointers skips the entry's
// frame) is cut there too, incomplete.
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
#include "engine/profile/sampled_pass.hpp"
#include "os/sampling.hpp"
#include "os/symbols.hpp"

namespace glint::engine::profile {

// Whose a sample is.
enum class SampleOwner { the_case, after, glint };

class StackBuilder {
public:
    // `entries`: the return addresses of the calls into the case (entry_returns()).
    StackBuilder(os::Symbolizer& symbols, std::vector<std::uint64_t> entries);
    StackBuilder(os::Symbolizer& symbols, PassCode code);

    // Adds `sample` to `profile` when it is the case's; says whose it is.
    SampleOwner add(const os::SampleRecord& sample, Profile& profile);
    SampleOwner owner(const os::SampleRecord& sample) const;

    std::uint64_t dropped_glint() const { return dropped_glint_; }
    std::uint64_t dropped_after() const { return dropped_after_; }

    // The frames (innermost first) and containing-symbol start of one code address.
    const os::Symbolized& resolve(std::uint64_t address);

private:
    os::Symbolizer& symbols_;
    PassCode code_;
    std::uint64_t dropped_glint_ = 0, dropped_after_ = 0;
    std::unordered_map<std::uint64_t, os::Symbolized> cache_;
    std::vector<FrameAt> stack_;  // reused per sample
};

// The symbolization capability: looks up one of glint's own functions and says what named it
// (ELF symbols, DWARF through libdw) or why it could not be named.
Status symbolization_status(os::Symbolizer& symbols);

// The last path component of a module path ("/usr/lib/libc.so.6" -> "libc.so.6").
std::string module_basename(const std::string& path);

}  // namespace glint::engine::profile
