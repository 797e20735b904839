// The ring-buffer record parser (os/linux/perf_ring.hpp) on fake data areas: samples with and
// without call chains, context markers, LOST/THROTTLE records, records wrapping around the end of
// the area, and corrupt sizes.
#include <doctest/doctest.h>

#include <linux/perf_event.h>

#include <cstring>
#include <vector>

#include "os/linux/perf_ring.hpp"

using glint::os::SampleCounts;
using glint::os::SampleRecord;
using glint::os::linux_::parse_ring;

namespace {

constexpr std::uint64_t kType =
    PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;

// A data area of `size` bytes and a free-running head, written as the kernel writes it.
struct FakeRing {
    explicit FakeRing(std::size_t size, std::uint64_t start = 0)
        : data(size, 0xAA), head(start), tail(start) {}
    std::vector<unsigned char> data;
    std::uint64_t head;
    std::uint64_t tail;

    void put(const std::vector<std::uint64_t>& words, std::uint32_t type, std::uint16_t misc) {
        perf_event_header h{type, misc, static_cast<std::uint16_t>(8 + 8 * words.size())};
        std::vector<unsigned char> bytes(h.size);
        std::memcpy(bytes.data(), &h, sizeof h);
        std::memcpy(bytes.data() + 8, words.data(), 8 * words.size());
        for (unsigned char b : bytes) data[head++ % data.size()] = b;
    }
    void sample(std::uint64_t ip, std::vector<std::uint64_t> chain, bool kernel = false) {
        std::vector<std::uint64_t> w{ip, (std::uint64_t{22} << 32) | 11, 100000, chain.size()};
        w.insert(w.end(), chain.begin(), chain.end());
        put(w, PERF_RECORD_SAMPLE, kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
    }
    // Parses [tail, head); returns the samples.
    std::vector<SampleRecord> parse(SampleCounts& counts, std::uint64_t type = kType) {
        std::vector<SampleRecord> out;
        SampleRecord scratch;
        tail = parse_ring(
            data.data(), data.size(), tail, head, type, counts,
            [&](const SampleRecord& r) { out.push_back(r); }, scratch);
        return out;
    }
};

}  // namespace

TEST_CASE("perf ring: a sample's ip, pid, tid, period and user stack") {
    FakeRing ring(4096);
    ring.sample(0x401000, {PERF_CONTEXT_USER, 0x401000, 0x402010, 0x403020});
    SampleCounts counts;
    const auto samples = ring.parse(counts);
    REQUIRE(samples.size() == 1);
    CHECK(samples[0].ip == 0x401000);
    CHECK(samples[0].pid == 11);
    CHECK(samples[0].tid == 22);
    CHECK(samples[0].period == 100000);
    CHECK_FALSE(samples[0].in_kernel);
    CHECK(samples[0].user_stack == std::vector<std::uint64_t>{0x401000, 0x402010, 0x403020});
    CHECK(counts.samples == 1);
    CHECK(ring.tail == ring.head);
}

TEST_CASE("perf ring: kernel frames and context markers stay out of the user stack") {
    FakeRing ring(4096);
    ring.sample(0xffffffff81000000,
                {PERF_CONTEXT_KERNEL, 0xffffffff81000000, 0xffffffff81000100, PERF_CONTEXT_USER,
                 0x7f0000001234, 0x401500},
                true);
    SampleCounts counts;
    const auto samples = ring.parse(counts);
    REQUIRE(samples.size() == 1);
    CHECK(samples[0].in_kernel);
    CHECK(samples[0].user_stack == std::vector<std::uint64_t>{0x7f0000001234, 0x401500});
}

TEST_CASE("perf ring: without a call chain the user ip is the stack") {
    FakeRing ring(4096);
    ring.put({0x401000, 7, 5}, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
    SampleCounts counts;
    const auto samples = ring.parse(counts, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD);
    REQUIRE(samples.size() == 1);
    CHECK(samples[0].user_stack == std::vector<std::uint64_t>{0x401000});
    CHECK(samples[0].period == 5);
}

TEST_CASE("perf ring: LOST, THROTTLE and UNTHROTTLE are counted, other records skipped") {
    FakeRing ring(4096);
    ring.sample(1, {PERF_CONTEXT_USER, 1});
    ring.put({/*id*/ 9, /*lost*/ 37}, PERF_RECORD_LOST, 0);
    ring.put({/*time*/ 1, /*id*/ 9, /*stream*/ 9}, PERF_RECORD_THROTTLE, 0);
    ring.put({1, 9, 9}, PERF_RECORD_UNTHROTTLE, 0);
    ring.put({1, 2, 3}, PERF_RECORD_COMM, 0);
    ring.put({/*id*/ 9, /*lost*/ 5}, PERF_RECORD_LOST, 0);
    ring.sample(2, {PERF_CONTEXT_USER, 2});
    SampleCounts counts;
    const auto samples = ring.parse(counts);
    CHECK(samples.size() == 2);
    CHECK(counts.samples == 2);
    CHECK(counts.lost == 42);
    CHECK(counts.throttled == 1);
    CHECK(counts.unthrottled == 1);
    CHECK(counts.other == 1);
    CHECK(counts.malformed == 0);
}

TEST_CASE("perf ring: records wrapping around the end of the area, header split included") {
    // Every start offset modulo 8 in the last 64 bytes: the body wraps, or the header itself.
    for (std::uint64_t start = 4096 - 64; start < 4096; start += 8) {
        CAPTURE(start);
        FakeRing ring(4096, start + 4096 * 3);  // positions are free-running counters
        ring.sample(0x500000, {PERF_CONTEXT_USER, 0x500000, 0x600000, 0x700000, 0x800000});
        ring.sample(0x500001, {PERF_CONTEXT_USER, 0x500001});
        SampleCounts counts;
        const auto samples = ring.parse(counts);
        REQUIRE(samples.size() == 2);
        CHECK(samples[0].user_stack ==
              std::vector<std::uint64_t>{0x500000, 0x600000, 0x700000, 0x800000});
        CHECK(samples[1].ip == 0x500001);
        CHECK(counts.malformed == 0);
    }
}

TEST_CASE("perf ring: consecutive drains continue where the last one stopped") {
    FakeRing ring(256);
    SampleCounts counts;
    std::size_t total = 0;
    for (int round = 0; round < 50; ++round) {  // wraps the 256-byte area many times
        ring.sample(static_cast<std::uint64_t>(round), {PERF_CONTEXT_USER, 1, 2});
        ring.sample(static_cast<std::uint64_t>(round) + 1000, {PERF_CONTEXT_USER, 3});
        const auto samples = ring.parse(counts);
        REQUIRE(samples.size() == 2);
        CHECK(samples[0].ip == static_cast<std::uint64_t>(round));
        CHECK(samples[1].user_stack == std::vector<std::uint64_t>{3});
        total += samples.size();
    }
    CHECK(counts.samples == total);
    CHECK(counts.malformed == 0);
}

TEST_CASE("perf ring: a corrupt record is counted once and the rest given back") {
    SUBCASE("size below the header") {
        FakeRing ring(4096);
        ring.sample(1, {PERF_CONTEXT_USER, 1});
        const std::uint64_t bad = ring.head;
        ring.sample(2, {PERF_CONTEXT_USER, 2});
        ring.data[bad % 4096 + 6] = 4;  // header.size = 4
        ring.data[bad % 4096 + 7] = 0;
        SampleCounts counts;
        const auto samples = ring.parse(counts);
        CHECK(samples.size() == 1);
        CHECK(counts.malformed == 1);
        CHECK(ring.tail == ring.head);
    }
    SUBCASE("a call chain longer than its record") {
        FakeRing ring(4096);
        ring.put({1, 2, 3, /*nr*/ 50, PERF_CONTEXT_USER}, PERF_RECORD_SAMPLE, 0);
        SampleCounts counts;
        CHECK(ring.parse(counts).empty());
        CHECK(counts.samples == 0);
        CHECK(counts.malformed == 1);
    }
    SUBCASE("a record reaching past head") {
        FakeRing ring(4096);
        ring.sample(1, {PERF_CONTEXT_USER, 1});
        ring.head -= 8;  // the kernel has not finished it (cannot happen) or the size lies
        SampleCounts counts;
        CHECK(ring.parse(counts).empty());
        CHECK(counts.malformed == 1);
        CHECK(ring.tail == ring.head);
    }
}
