// engine/profile/profile.hpp: one case's samples, aggregated.
//
// A sample is a stack of frames, innermost first, cut at the case's entry; an inlined function
// is a frame of its own. A share is n/N with uncertainty ±√n/N. `complete` marks a stack that
// reached the case's entry; incomplete stacks are still counted (under "[incomplete stack]" in
// the folded output) and their fraction reported.
// Rationale and details: docs/rationale.md, "engine/profile/profile.hpp".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace glint::engine::profile {

using FrameId = std::uint32_t;

struct FrameName {
    std::string function;  // demangled; "[kernel]", "[unknown]", "module+0x1a2b" when unnamed
    std::string module;    // the module's path ("" unknown)
    bool inlined = false;
    bool operator<(const FrameName& o) const {
        return std::tie(function, module, inlined) < std::tie(o.function, o.module, o.inlined);
    }
};

// A frame as a sample saw it: which function, at which source line.
struct FrameAt {
    FrameId id = 0;
    std::string file;
    std::uint32_t line = 0;
};

struct FunctionShare {
    FrameName name;
    std::string file;  // the line most self samples fell on ("" none known)
    std::uint32_t line = 0;
    std::uint64_t self = 0;       // samples with this function innermost
    std::uint64_t inclusive = 0;  // samples with this function anywhere on the stack
    double self_share = 0;        // self / samples
    double self_error = 0;        // √self / samples
    double inclusive_share = 0;   // inclusive / samples
};

class Profile {
  public:
    FrameId intern(const FrameName& name);
    const FrameName& name(FrameId id) const { return names_[id]; }

    // One sample: its frames innermost first (at least one).
    void add(const std::vector<FrameAt>& stack, bool complete);

    std::uint64_t samples() const { return samples_; }
    std::uint64_t complete() const { return complete_; }

    // Every function that was sampled, by self samples (then inclusive, then name), descending.
    std::vector<FunctionShare> functions() const;

    // Folded stacks, the flame-graph input: "root;outer;...;inner count" per distinct stack,
    // sorted by stack; the counts sum to samples(). `root` leads every stack ("" for none).
    std::vector<std::pair<std::string, std::uint64_t>> folded(const std::string& root) const;

  private:
    struct Stats {
        std::uint64_t self = 0;
        std::uint64_t inclusive = 0;
        std::map<std::pair<std::string, std::uint32_t>, std::uint64_t> lines;  // self samples
    };
    std::vector<FrameName> names_;
    std::map<FrameName, FrameId> ids_;
    std::vector<Stats> stats_;
    std::map<std::pair<std::vector<FrameId>, bool>, std::uint64_t> stacks_;  // (stack, complete)
    std::uint64_t samples_ = 0;
    std::uint64_t complete_ = 0;
};

// The uncertainty of a share of n samples out of `total`: √n / total (0 when total is 0).
double share_error(std::uint64_t n, std::uint64_t total);

// A frame name as folded output writes it: sanitize::terminal's (one line, controls visible),
// ';' (the format's delimiter) as ':'.
std::string folded_frame(const std::string& function);

}  // namespace glint::engine::profile
