#include "probes.hpp"

extern "C" {

[[gnu::noinline, gnu::used]] void glint_hot_probe_read(const glint::hot::Group<2>& group,
                                                       glint::hot::Snapshot<2>* out) {
    *out = group.read();
}

[[gnu::noinline, gnu::used]] void glint_hot_probe_pair(const glint::hot::Group<2>& group,
                                                       glint::hot::Delta<2>* out) {
    const glint::hot::Snapshot<2> a = group.read();
    const glint::hot::Snapshot<2> b = group.read();
    *out = b - a;
}

[[gnu::noinline, gnu::used]] void glint_hot_probe_counts_pair(const glint::hot::Group<2>& group,
                                                              glint::hot::Counts<2>* out) {
    const glint::hot::Counts<2> a = group.read_counts();
    const glint::hot::Counts<2> b = group.read_counts();
    *out = b - a;
}

[[gnu::noinline, gnu::used]] void glint_hot_probe_nothing(const glint::hot::Group<2>&,
                                                          glint::hot::Delta<2>* out) {
    asm volatile("" : : "r"(out) : "memory");
}
}
