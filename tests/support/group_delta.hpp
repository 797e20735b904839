// tests/support/group_delta.hpp: a GroupDelta (os/read_path.hpp) written inline, for the tests
// of a pass's arithmetic: enabled and running times and one count per member, read ok.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "os/read_path.hpp"

namespace glint::test {

inline os::GroupDelta delta(std::uint64_t enabled, std::uint64_t running,
                            std::initializer_list<std::uint64_t> counts) {
    os::GroupDelta d;
    d.enabled = enabled;
    d.running = running;
    for (auto c : counts) d.counts[d.size++] = c;
    d.ok = true;
    return d;
}

}  // namespace glint::test
