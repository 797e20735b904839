// <glint/main.hpp>: the runner's entry point. Link glint::main for a ready main(), or call
// glint::main from your own.
#pragma once

namespace glint {

// Parses the command line, runs (or measures, with --bench) every registered case, prints
// the report. Returns the process exit status: 0 all passed, 1 a case failed, 2 bad usage.
int main(int argc, char** argv);

}  // namespace glint
