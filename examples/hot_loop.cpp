// examples/hot_loop.cpp: performance counters around each call of your own function, with
// <glint/hot.hpp>, and the distribution of the per-call cost with <glint/histogram.hpp>.
//
//   hot_loop [FILE]     prints the histograms; with FILE, also writes them as JSON
//
// Where the kernel grants user reads (x86 rdpmc, arm64 mrs) each read is a few dozen
// instructions and no system call. Where it does not, the group says why, and the example
// still records the TSC/CNTVCT ticks every read carries.
//
// A call during which the kernel had the group off the PMU (more events than counters: it
// multiplexes them) is flagged by d.partial(): its counts are short by an unknown amount, so it
// is left out of the counter histograms and counted instead.
#include <glint/histogram.hpp>
#include <glint/hot.hpp>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <vector>

namespace {

// The work being studied: a checksum whose cost depends on the input's length.
[[gnu::noinline]] std::uint64_t checksum(const std::vector<std::uint8_t>& data) {
    std::uint64_t h = 1469598103934665603ull;
    for (std::uint8_t byte : data) h = (h ^ byte) * 1099511628211ull;
    return h;
}

}  // namespace

int main(int argc, char** argv) {
    // Open once: cycles and instructions of this thread, as one group.
    glint::hot::Group counters({"cycles", "instructions"});
    if (counters.ok()) {
        std::printf("hot_loop: %s\n", counters.status().reason);
    } else {
        std::printf("hot_loop: no counters (%s)%s%s; recording ticks only\n",
                    counters.status().reason, *counters.status().remedy ? " — " : "",
                    counters.status().remedy);
    }

    // Inputs of three sizes, mostly short: the distribution has a body and a tail.
    std::vector<std::vector<std::uint8_t>> inputs;
    for (int i = 0; i < 100; ++i)
        inputs.emplace_back(i % 50 == 0 ? 4096 : i % 10 == 0 ? 512 : 64, 7);

    // Fixed memory, allocated once; recording never allocates.
    auto cycles = std::make_unique<glint::hot::Histogram>();
    auto instructions = std::make_unique<glint::hot::Histogram>();
    auto ticks = std::make_unique<glint::hot::Histogram>();
    const auto cost = counters.read_cost();  // an empty read pair, measured at open
    std::uint64_t sink = 0;
    std::uint64_t partial = 0;  // calls during which the counters were off the PMU for a while

    for (int round = 0; round < 200; ++round) {
        for (const auto& input : inputs) {
            const auto before = counters.read();
            sink += checksum(input);
            const auto d = counters.read() - before - cost;
            ticks->record(d.ticks > 0 ? static_cast<std::uint64_t>(d.ticks) : 0);
            if (counters.ok() && d.partial()) {
                ++partial;  // short counts: never recorded as if they were the call's
            } else if (counters.ok()) {
                cycles->record(d.counts[0] > 0 ? static_cast<std::uint64_t>(d.counts[0]) : 0);
                instructions->record(d.counts[1] > 0 ? static_cast<std::uint64_t>(d.counts[1]) : 0);
            }
        }
    }

    std::fputs(
        glint::hot::to_text(*ticks, {.title = "checksum: ticks per call", .unit = "ticks"}).c_str(),
        stdout);
    if (counters.ok()) {
        std::fputs(
            glint::hot::to_text(*cycles, {.title = "checksum: cycles per call", .unit = "cycles"})
                .c_str(),
            stdout);
        std::fputs(glint::hot::to_text(*instructions, {.title = "checksum: instructions per call",
                                                       .unit = "instructions"})
                       .c_str(),
                   stdout);
    }
    if (argc > 1) {
        std::FILE* out = std::fopen(argv[1], "w");
        if (!out) {
            std::perror(argv[1]);
            return 1;
        }
        std::fprintf(out, "{\"ticks\": %s, \"cycles\": %s, \"instructions\": %s}\n",
                     glint::hot::to_json(*ticks).c_str(),
                     counters.ok() ? glint::hot::to_json(*cycles).c_str() : "null",
                     counters.ok() ? glint::hot::to_json(*instructions).c_str() : "null");
        std::fclose(out);
    }
    std::printf(
        "hot_loop: done (%llu calls, %llu of them off the PMU for a while and left out of "
        "the counter histograms; %llu reads by read(2), %llu of them after a torn page; "
        "checksum %llx)\n",
        static_cast<unsigned long long>(ticks->count()), static_cast<unsigned long long>(partial),
        static_cast<unsigned long long>(counters.syscall_reads()),
        static_cast<unsigned long long>(counters.torn_fallbacks()),
        static_cast<unsigned long long>(sink));
    return 0;
}
