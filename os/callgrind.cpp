#include "os/callgrind.hpp"

#if defined(GLINT_HAVE_CALLGRIND)
#include <valgrind/callgrind.h>
#endif

namespace glint::os {

#if defined(GLINT_HAVE_CALLGRIND)
bool callgrind_built() { return true; }
bool running_on_valgrind() { return RUNNING_ON_VALGRIND != 0; }
void callgrind_zero_stats() { CALLGRIND_ZERO_STATS; }
void callgrind_toggle_collect() { CALLGRIND_TOGGLE_COLLECT; }
void callgrind_dump(const char* reason) { CALLGRIND_DUMP_STATS_AT(reason); }
#else
bool callgrind_built() { return false; }
bool running_on_valgrind() { return false; }
void callgrind_zero_stats() {}
void callgrind_toggle_collect() {}
void callgrind_dump(const char*) {}
#endif

}  // namespace glint::os
