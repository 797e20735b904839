// engine/profile/stacks.hpp: raw samples into profile stacks.
//
// Symbolizes each address once per run, expands inline chains and cuts each stack at the pass's
// call into the case (entry_returns()). Samples of glint's own code or of after() are dropped
// and counted; a stack reaching the pass's code without the entry is cut there, incomplete. A
// return address names its call; kernel samples get a "[kernel]" frame; an unnamed address is
// "module+0xoffset" or "[unknown]".
// Rationale and details: docs/rationale.md, "engine/profile/stacks.hpp".
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
