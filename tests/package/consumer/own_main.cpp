#include <glint/bench.hpp>
#include <glint/main.hpp>

GLINT_BENCH("consumer/own_main") { glint::black_box(42); }

int main(int argc, char** argv) { return glint::main(argc, argv); }
