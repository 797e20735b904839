// Honest stub off Linux: tracepoints and tracefs are Linux features.
#include <cerrno>

#include "os/tracefs.hpp"

namespace glint::os {

std::vector<std::string> default_tracefs_roots() { return {}; }

std::string find_tracefs(const std::vector<std::string>&) { return {}; }

TracepointLookup lookup_tracepoint(const std::string&, const std::string& system,
                                   const std::string& name) {
    TracepointLookup out;
    out.outcome = TracepointLookup::Outcome::not_supported;
    out.error = ENOSYS;
    out.event.name = system + ":" + name;
    return out;
}

}  // namespace glint::os
