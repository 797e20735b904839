// The end-of-region timestamp follows the CPU: rdtscp only where CPUID reports it (a guest
// without it faults on the instruction), `lfence; rdtsc; lfence` elsewhere.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "arch/x86_64/bracket_stub.hpp"
#include "arch/x86_64/pmu.hpp"

namespace x86 = glint::arch::x86_64;

namespace {

// Whether /proc/cpuinfo's first "flags" line lists `flag` (the kernel's own CPUID reading).
bool cpuinfo_lists(const std::string& flag) {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("flags", 0) != 0) continue;
        std::istringstream words(line.substr(line.find(':') + 1));
        for (std::string w; words >> w;)
            if (w == flag) return true;
        return false;
    }
    return false;
}

}  // namespace

TEST_CASE("timestamps: rdtscp is used exactly where the CPU reports it") {
    CHECK(x86::kHasRdtscp == cpuinfo_lists("rdtscp"));
    CHECK((x86::native_serialization() == x86::Serialization::rdtscp) == x86::kHasRdtscp);
    MESSAGE("this CPU " << (x86::kHasRdtscp ? "has" : "lacks") << " rdtscp");
}

TEST_CASE("timestamps: the end read follows the begin read on this CPU, either way") {
    const std::uint64_t begin = x86::timestamp_begin();
    const std::uint64_t end = x86::timestamp_end();
    CHECK(end >= begin);
}
