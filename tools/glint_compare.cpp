// glint-compare: compares --bench-json documents (engine/compare/compare_main.hpp).
#include "engine/compare/compare_main.hpp"

int main(int argc, char** argv) { return glint::engine::compare_main(argc, argv); }
