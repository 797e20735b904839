#include <glint/bench.hpp>

GLINT_BENCH("consumer/add") {
    unsigned x = 1;
    glint::iter([&] { x = glint::black_box(x + x); });
}
