// The run's tally of profile notes (engine/profile/profile_notes.hpp): each gist once, the cases
// it applies to ("all 3 cases", "2 of 3 cases") and the range of their figures; a note about one
// case alone is not tallied; a child's tally (--isolate) merges into the same lines.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/profile/profile_notes.hpp"

using glint::engine::profile::NoteTally;
using glint::engine::profile::ProfileNote;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

ProfileNote frame_pointers(double percent) {
    return {"…",  "stacks do not reach the case's entry", "{} of stacks complete", percent, true,
            false};
}
ProfileNote kernel(double percent) {
    return {"…", "time in the kernel", "{} in the kernel", percent, true, false};
}
ProfileNote module_note() { return {"x: no DWARF", "x: no DWARF", "", kNan, false, false}; }
ProfileNote dropped(double n) { return {"…", "samples dropped", "{} dropped", n, false, false}; }

}  // namespace

TEST_CASE("profile notes: each gist once, with the cases it applies to and their figures") {
    NoteTally tally;
    tally.add("a", {frame_pointers(0), module_note(), kernel(12)});
    tally.add("b", {frame_pointers(45.4), module_note()});
    tally.add("c", {frame_pointers(3), module_note(), kernel(41), dropped(7)});
    CHECK(tally.lines() ==
          std::vector<std::string>{
              "profile note (all 3 cases; 0–45% of stacks complete): stacks do not reach the "
              "case's entry",
              "profile note (all 3 cases): x: no DWARF",
              "profile note (2 of 3 cases; 12–41% in the kernel): time in the kernel",
              "profile note (1 of 3 cases; 7 dropped): samples dropped",
          });
}

TEST_CASE("profile notes: a note about the case alone is not tallied, and one case is 'the case'") {
    NoteTally tally;
    ProfileNote own{
        "no samples of the case: …", "no samples of the case: …", "", kNan, false, true};
    tally.add("only", {own, frame_pointers(0)});
    CHECK(tally.lines() ==
          std::vector<std::string>{"profile note (the case; 0% of stacks complete): stacks do not "
                                   "reach the case's entry"});
    NoteTally empty;
    empty.add("clean", {});
    CHECK(empty.lines().empty());
}

TEST_CASE("profile notes: children's tallies merge as if one process had seen every case") {
    NoteTally first, second, parent, whole;
    first.add("a", {frame_pointers(0), kernel(12)});
    second.add("b", {frame_pointers(20)});
    second.add("c", {frame_pointers(5), kernel(30)});
    for (const auto& [name, notes] : std::vector<std::pair<std::string, std::vector<ProfileNote>>>{
             {"a", {frame_pointers(0), kernel(12)}},
             {"b", {frame_pointers(20)}},
             {"c", {frame_pointers(5), kernel(30)}}})
        whole.add(name, notes);
    parent.merge(first.to_json());
    parent.merge(second.to_json());
    CHECK(parent.lines() == whole.lines());
    CHECK(parent.lines()[1] ==
          "profile note (2 of 3 cases; 12–30% in the kernel): time in the kernel");
    parent.merge(glint::engine::Json());  // nothing handed back: nothing changes
    CHECK(parent.lines() == whole.lines());
}
