// support/known_loop.hpp where no architecture back end exists: no known loop.
#include "support/known_loop.hpp"

namespace glint::test {

bool known_loop_available() { return false; }

void known_loop(void*, std::uint64_t) {}

}  // namespace glint::test
