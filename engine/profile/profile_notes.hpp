// engine/profile/profile_notes.hpp: the reasons to doubt a case's profile, and the run's tally
// of them. Each note has its full text (the case's figures in it: JSON rows[].profile.notes)
// and a gist without them; the run prints each gist once, in its footer, with the cases it
// applies to ("3 of 7 cases", or all) and the range of their figures ("12–41% in the kernel"),
// so a reason every case shares (no frame pointers, no DWARF) is not repeated under each case.
// A note about the case alone (no samples of it) is printed under its profile instead.
#pragma once

#include <cstddef>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "engine/model/json.hpp"

namespace glint::engine::profile {

struct ProfileNote {
    std::string text;  // in full, with the case's figure
    std::string gist;  // the same without it: what the run's footer says once
    // The figure: `value` printed in `figure`'s "{}" ("{} in the kernel"), "%" after it when
    // `percent`; no figure when `figure` is empty.
    std::string figure;
    double value = std::numeric_limits<double>::quiet_NaN();
    bool percent = false;
    bool own_line = false;  // about this case alone: printed under its profile, not tallied
};

// The notes of every profiled case in a run: each gist once, the cases it applies to and the
// range of their figures. Under --isolate each child tallies its cases and the parent merges.
class NoteTally {
  public:
    void add(const std::string& case_name, const std::vector<ProfileNote>& notes);
    // "profile note (all 7 cases; 0% of stacks complete): its code lacks frame pointers ...",
    // in the order the gists were first seen; none when no case had one.
    std::vector<std::string> lines() const;

    Json to_json() const;
    void merge(const Json& handed);  // a child's to_json()

  private:
    struct Entry {
        std::string gist;
        std::string figure;
        bool percent = false;
        std::set<std::string> cases;
        double low = std::numeric_limits<double>::infinity();
        double high = -std::numeric_limits<double>::infinity();
    };
    Entry& entry(const std::string& gist);

    std::set<std::string> cases_;  // every profiled case
    std::vector<Entry> entries_;
};

}  // namespace glint::engine::profile
