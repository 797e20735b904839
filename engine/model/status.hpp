// engine/model/status.hpp: what a tier or capability can do on this run, and why not.
// Environment problems become Status values, never exceptions across layers.
#pragma once

#include <string>
#include <vector>

#include "engine/model/json.hpp"

namespace glint::engine {

struct Status {
    enum class State {
        available,    // works as asked
        degraded,     // works in a reduced form (user-only, LLC pair dropped, software-only, ...)
        unavailable,  // the kernel or machine refused it
        not_built,    // this build does not include it ("built without X" is not "refused")
    };
    std::string capability;  // e.g. "scalar-counting", "perf", "tier0"
    State state = State::unavailable;
    std::string reason;  // what happened, in words a user can act on
    std::string remedy;  // how to get it, where there is a way ("sysctl ...")

    bool usable() const { return state == State::available || state == State::degraded; }
};

const char* to_string(Status::State state);

// The words of a status, written in one place for every tier, capability and reporter:

// "reason — remedy" (the reason alone when there is no remedy): a status as one header line.
std::string with_remedy(const Status& s);

// "capability: reason — remedy: remedy": a status as a stderr note.
std::string note_line(const Status& s);

// {capability?, state, reason, remedy?}: one status as JSON (meta.capabilities, disclosures).
Json status_json(const Status& s);

// A tier's headline state for JSON meta.tiers: {status, reason, remedy (when there is one)} of
// its first status, or unavailable "not opened" when it reported none.
Json status_meta(const std::vector<Status>& statuses);

}  // namespace glint::engine
