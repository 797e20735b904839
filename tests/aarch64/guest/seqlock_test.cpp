// The seqlock tear cases of tests/support/seqlock_tear_cases.hpp, compiled for arm64 and run in
// the guest (the host's unit tests run the same cases).
#include "support/seqlock_tear_cases.hpp"
