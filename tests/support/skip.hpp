// tests/support/skip.hpp: a test case that cannot check anything on this host says so.
//
//   if (!pmu.intercepts()) return glint::test::skip("rdpmc does not trap here");
//
// skip() prints "GLINT-SKIP: <test case>: <reason>" and marks the running test case skipped; the
// caller returns at once (doctest 2.4 has no run-time skip). The test binaries' main
// (support/test_main.cpp) then exits with kSkipExitCode when every test case it ran was
// skipped and none failed, which ctest reports as "Skipped" (SKIP_RETURN_CODE), never as a
// pass. A failed check before the skip still fails the test case.
#pragma once

#include <string_view>

namespace glint::test {

inline constexpr int kSkipExitCode = 77;

void skip(std::string_view reason);

}  // namespace glint::test
