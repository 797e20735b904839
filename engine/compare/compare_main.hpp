// engine/compare/compare_main.hpp: the glint-compare program (tools/glint_compare.cpp calls it).
//
//   glint-compare [flags] BASE.json NEW.json [MORE.json...]
//
// Compares every later document with the first (compare.hpp) and prints the table, the
// summary and the gate (compare_report.hpp). Exit status: 0, 1 when --fail-if-slower found a
// row slower beyond its threshold with confidence, 2 for bad usage or an unreadable document
// (one line naming it, before anything is printed).
#pragma once

namespace glint::engine {

int compare_main(int argc, char** argv);

}  // namespace glint::engine
