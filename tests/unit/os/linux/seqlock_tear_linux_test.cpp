// The seqlock tear cases of tests/support/seqlock_tear_cases.hpp on the build host (the arm64
// guest runs the same cases: tests/aarch64/guest/seqlock_test.cpp).
#include "support/seqlock_tear_cases.hpp"
