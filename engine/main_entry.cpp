// The main() of the glint::main target.
#include <glint/main.hpp>

int main(int argc, char** argv) { return glint::main(argc, argv); }
