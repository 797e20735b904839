// Functions that read a <glint/hot.hpp> group, compiled once (probes_linux_x86_64.cpp) so tests
// can both run them (the emulated rig) and inspect the code the compiler emitted for them
// (objdump). extern "C": their symbols are the names below.
#pragma once

#include <glint/hot.hpp>

extern "C" {
// *out = group.read()
void glint_hot_probe_read(const glint::hot::Group<2>& group, glint::hot::Snapshot<2>* out);
// a = group.read(); b = group.read(); *out = b - a
void glint_hot_probe_pair(const glint::hot::Group<2>& group, glint::hot::Delta<2>* out);
// a = group.read_counts(); b = group.read_counts(); *out = b - a
void glint_hot_probe_counts_pair(const glint::hot::Group<2>& group, glint::hot::Counts<2>* out);
// Nothing: what calling a probe costs, to subtract.
void glint_hot_probe_nothing(const glint::hot::Group<2>& group, glint::hot::Delta<2>* out);
}
