// glint_rdtscp_chains: a plain reference for bench/asm_vs_rdtscp.sh (docs/asm.md), outside
// glint. For each instruction named on the command line (add imul crc32 lzcnt shld), a chain of
// dependent copies on rax, timed with rdtscp: each trial times 4000 and 2000 copies and keeps the
// difference, then the same for a chain of adds, back to back; the instruction's latency in adds
// is the median over the trials of their ratio. Prints "name ratio" a line ("name skipped: why"
// where the CPU lacks the instruction). x86-64 only.
#include <cpuid.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

inline std::uint64_t tsc() {
    std::uint32_t lo = 0, hi = 0, aux = 0;
    asm volatile("lfence\n\trdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
    return (std::uint64_t{hi} << 32) | lo;
}

// Ticks of `copies` dependent copies of INSN (AT&T syntax, on %rax), rax starting at 1.
#define GLINT_CHAIN(name, insn)                                                 \
    template <int copies>                                                       \
    std::uint64_t name() {                                                      \
        std::uint64_t x = 1;                                                    \
        const std::uint64_t start = tsc();                                      \
        asm volatile(".rept %c1\n\t" insn "\n\t.endr" : "+a"(x) : "i"(copies)); \
        const std::uint64_t stop = tsc();                                       \
        asm volatile("" : : "r"(x));                                            \
        return stop - start;                                                    \
    }

GLINT_CHAIN(add_chain, "add %%rax, %%rax")
GLINT_CHAIN(imul_chain, "imul %%rax, %%rax")
GLINT_CHAIN(crc32_chain, "crc32q %%rax, %%rax")
GLINT_CHAIN(lzcnt_chain, "lzcnt %%rax, %%rax")
GLINT_CHAIN(shld_chain, "shld $1, %%rax, %%rax")

struct Chain {
    const char* name;
    std::uint64_t (*longer)();
    std::uint64_t (*shorter)();
};

const Chain kChains[] = {
    {"add", &add_chain<4000>, &add_chain<2000>},
    {"imul", &imul_chain<4000>, &imul_chain<2000>},
    {"crc32", &crc32_chain<4000>, &crc32_chain<2000>},
    {"lzcnt", &lzcnt_chain<4000>, &lzcnt_chain<2000>},
    {"shld", &shld_chain<4000>, &shld_chain<2000>},
};

// Why this CPU cannot run `name`; nullptr when it can (crc32: SSE4.2, lzcnt: LZCNT/ABM).
const char* missing(const char* name) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (std::strcmp(name, "crc32") == 0)
        return __get_cpuid(1, &a, &b, &c, &d) && (c & (1u << 20)) ? nullptr : "no SSE4.2";
    if (std::strcmp(name, "lzcnt") == 0)  // without it the encoding runs as bsr
        return __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & (1u << 5)) ? nullptr
                                                                          : "no LZCNT (ABM)";
    return nullptr;
}

double difference(const Chain& c) {
    return static_cast<double>(c.longer()) - static_cast<double>(c.shorter());
}

}  // namespace

int main(int argc, char** argv) {
    constexpr int kTrials = 2001;
    const Chain& add = kChains[0];
    for (int a = 1; a < argc; ++a) {
        const Chain* chain = nullptr;
        for (const Chain& c : kChains)
            if (std::strcmp(c.name, argv[a]) == 0) chain = &c;
        if (!chain) {
            std::fprintf(stderr,
                         "glint_rdtscp_chains: unknown instruction '%s' (add imul crc32 "
                         "lzcnt shld)\n",
                         argv[a]);
            return 2;
        }
        if (const char* why = missing(chain->name)) {
            std::printf("%s skipped: %s\n", chain->name, why);
            continue;
        }
        std::vector<double> ratios;
        for (int t = 0; t < kTrials; ++t) {
            const double one = difference(*chain), unit = difference(add);
            if (one > 0 && unit > 0) ratios.push_back(one / unit);
        }
        if (ratios.empty()) {
            std::fprintf(stderr, "glint_rdtscp_chains: %s: no trial differenced above 0\n",
                         chain->name);
            return 1;
        }
        std::nth_element(ratios.begin(), ratios.begin() + ratios.size() / 2, ratios.end());
        std::printf("%s %.4f\n", chain->name, ratios[ratios.size() / 2]);
    }
    return 0;
}
