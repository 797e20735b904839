// engine/profile/case_profile.hpp: one case's profile as the run reports it: the flat profile
// printed after the case's table, its JSON (rows[].profile) and its folded stacks, all from the
// same numbers. Shares carry ±√n/N; inclusive shares are "—" when fewer than
// kCompleteForInclusive of the stacks are complete; the notes name every reason to doubt them
// (JSON: each case's; text: the run's footer, once). Function names are shortened to fit a row
// of 100 columns (function_name.hpp); JSON and the folded stacks keep them whole.
// Rationale and details: docs/rationale.md, "engine/profile/case_profile.hpp".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "engine/profile/profile.hpp"
#include "engine/profile/profile_notes.hpp"
#include "engine/profile/sampled_pass.hpp"
#include "os/sampling.hpp"
#include "os/symbols.hpp"

namespace glint::engine::profile {

inline constexpr double kCompleteForInclusive = 0.9;
inline constexpr double kKernelNote = 0.05;
inline constexpr std::size_t kTopText = 8;       // functions printed per case
inline constexpr std::size_t kTopJson = 25;      // functions in rows[].profile.functions
inline constexpr std::size_t kMaxStacks = 1000;  // distinct folded stacks in JSON

struct CaseProfile {
    std::string name;
    os::SamplerSpec spec;
    std::string how;  // the plan's description of the event
    PassLimits limits;
    PassOutcome pass;
    os::SampleCounts counts;
    Profile profile;
    std::vector<os::ModuleReport> modules;  // the modules its samples touched
    // Samples dropped as not the case's (StackBuilder): glint's own code while the sampler was
    // on (its toggles), and after() in grouped per-call windows. `profile` holds the rest.
    std::uint64_t dropped_glint = 0;
    std::uint64_t dropped_after = 0;

    // Samples per second of the event's running time; nan when the time is unknown or 0.
    double rate_hz() const;
    double complete_fraction() const;  // nan without samples
    // Timers only (their count is CPU time, kernel included, while enabled): the share of the
    // sampled window spent in the kernel, which user-mode sampling does not see; nan otherwise,
    // and nan without samples (nothing was measured to take a share of).
    double kernel_share() const;
    // Every reason to doubt the profile (profile_notes.hpp; defined there).
    std::vector<ProfileNote> notes() const;
};

std::vector<std::string> profile_lines(const CaseProfile& p);
Json profile_json(const CaseProfile& p);

// "split;work_three(unsigned long) 1506" lines of one case (the case's name as the root).
std::vector<std::string> folded_lines(const CaseProfile& p);

}  // namespace glint::engine::profile
