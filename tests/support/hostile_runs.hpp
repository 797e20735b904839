// tests/support/hostile_runs.hpp: runs under a resource limit, for the hostile e2e tests. The
// limit is set in the run's own process (sh's ulimit, then exec), never in the test's.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "support/process.hpp"

// Defined by the AddressSanitizer and ThreadSanitizer runtimes (weak here: null without one).
extern "C" void __asan_init() __attribute__((weak));
extern "C" void __tsan_init() __attribute__((weak));

namespace glint::test {

// Whether this test binary runs under ASan or TSan: their shadow memory outgrows an
// address-space limit (ulimit -v) set for a child.
inline bool sanitized_runtime() { return &__asan_init != nullptr || &__tsan_init != nullptr; }

// argv run by /bin/sh after `limit` (a ulimit command), through exec.
inline std::vector<std::string> under_limit(const std::string& limit,
                                            const std::vector<std::string>& argv) {
    std::vector<std::string> out{"/bin/sh", "-c", limit + " && exec \"$0\" \"$@\""};
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
}

// Runs argv to its end (killed after `limit_s`: a run that hangs fails the checks) and checks
// that it exited with `status`.
inline ProcessResult ended_with(int status, const std::vector<std::string>& argv,
                                const std::vector<std::string>& env = {}, double limit_s = 120) {
    BackgroundProcess run(argv, env);
    ProcessResult r = run.wait(limit_s);
    INFO(r.err);
    CHECK(r.term_signal == 0);
    CHECK(r.exit_code == status);
    return r;
}

}  // namespace glint::test
