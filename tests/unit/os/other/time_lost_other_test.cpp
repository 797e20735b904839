// Without an OS back end, steal and run delay are unknown with the reason, never a 0.
#include <doctest/doctest.h>

#include "os/time_lost.hpp"

using namespace glint::os;

TEST_CASE("time lost off Linux: steal and run delay are unknown, saying why") {
    const StealReading steal = read_steal(SystemRoots{});
    CHECK_FALSE(steal.ok);
    CHECK(steal.why == "glint has no back end for this OS: hypervisor steal time is unknown");
    const RunDelayReading delay = read_run_delay(SystemRoots{});
    CHECK_FALSE(delay.ok);
    CHECK(delay.why == "glint has no back end for this OS: the thread's run delay is unknown");
}
