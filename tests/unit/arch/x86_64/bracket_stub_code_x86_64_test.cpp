// The emitted code, checked byte for byte against hand-assembled sequences (encodings from the
// Intel SDM). The pages here are fake addresses: these stubs are inspected, never run.
#include <doctest/doctest.h>
#include <xbyak/xbyak.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arch/arch.hpp"
#include "arch/x86_64/bracket_stub.hpp"

namespace x86 = glint::arch::x86_64;

namespace {

// -1 matches any byte (jump displacements).
using Pattern = std::vector<int>;

std::int64_t never_called(void*, std::uint32_t) { return 0; }

const void* fake_page(unsigned i) {  // no 0F 33 / 0F AE inside, so byte searches stay honest
    return reinterpret_cast<const void*>(0x1122334455660000ull + 0x1000ull * i);
}

x86::StubLayout layout(unsigned counters, unsigned width, std::uint32_t first_index = 3) {
    x86::StubLayout l;
    l.fields = {8, 12, 16, 40, 2};  // perf_event_mmap_page: lock, index, offset, caps, rdpmc bit
    for (unsigned i = 0; i < counters; ++i)
        l.counters.push_back({fake_page(i), first_index + i, width});
    l.slow_read = &never_called;
    return l;
}

std::vector<std::uint8_t> bytes(const x86::BracketStub& s, std::size_t from, std::size_t to) {
    return {s.code() + from, s.code() + to};
}

bool matches_at(const std::vector<std::uint8_t>& code, std::size_t at, const Pattern& p) {
    if (at + p.size() > code.size()) return false;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i] >= 0 && code[at + i] != p[i]) return false;
    }
    return true;
}

std::vector<std::size_t> find_all(const std::vector<std::uint8_t>& code, const Pattern& p) {
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i + p.size() <= code.size(); ++i) {
        if (matches_at(code, i, p)) at.push_back(i);
    }
    return at;
}

Pattern concat(std::initializer_list<Pattern> parts) {
    Pattern all;
    for (const Pattern& p : parts) all.insert(all.end(), p.begin(), p.end());
    return all;
}

Pattern imm64(std::uint64_t v) {
    Pattern p;
    for (int i = 0; i < 8; ++i) p.push_back(static_cast<int>((v >> (8 * i)) & 0xff));
    return p;
}

const Pattern kAnyRel32 = {-1, -1, -1, -1};
const Pattern kLfence = {0x0F, 0xAE, 0xE8};

// One seqlock read of page i (index 3 + i) with a 48- or 64-bit width, up to the store.
Pattern read_sequence(unsigned i, unsigned width) {
    const auto page = reinterpret_cast<std::uint64_t>(fake_page(i));
    const std::uint8_t index = static_cast<std::uint8_t>(3 + i);
    Pattern p = concat({
        {0x49, 0xBB},
        imm64(page),                     // mov r11, PAGE
        {0x45, 0x8B, 0x53, 0x08},        // mov r10d, [r11+8]          (lock)
        {0x41, 0xF6, 0x43, 0x28, 0x04},  // test byte [r11+40], 4      (cap_user_rdpmc)
        {0x0F, 0x84},
        kAnyRel32,                        // jz slow
        {0x41, 0x83, 0x7B, 0x0C, index},  // cmp dword [r11+12], INDEX
        {0x0F, 0x85},
        kAnyRel32,                   // jne slow
        {0xB9, index - 1, 0, 0, 0},  // mov ecx, INDEX-1
        {0x0F, 0x33},                // rdpmc
        {0x48, 0xC1, 0xE2, 0x20},    // shl rdx, 32
        {0x48, 0x09, 0xD0},          // or rax, rdx
    });
    if (width == 48) {
        p = concat({p,
                    {0x48, 0xC1, 0xE0, 0x10},    // shl rax, 16
                    {0x48, 0xC1, 0xF8, 0x10}});  // sar rax, 16
    }
    return concat({p,
                   {0x49, 0x03, 0x43, 0x10},  // add rax, [r11+16]          (offset)
                   {0x45, 0x3B, 0x53, 0x08},  // cmp r10d, [r11+8]          (lock again)
                   {0x0F, 0x85},
                   kAnyRel32,       // jne retry
                   {0x48, 0x89}});  // mov [rbx+disp], rax
}

// The order in which `mov r11, PAGE` loads the pages of `layout` within [from, to).
std::vector<unsigned> page_order(const std::vector<std::uint8_t>& code, unsigned counters) {
    std::vector<std::pair<std::size_t, unsigned>> hits;
    for (unsigned i = 0; i < counters; ++i) {
        const auto page = reinterpret_cast<std::uint64_t>(fake_page(i));
        for (std::size_t at : find_all(code, concat({{0x49, 0xBB}, imm64(page)})))
            hits.push_back({at, i});
    }
    std::sort(hits.begin(), hits.end());
    std::vector<unsigned> order;
    for (const auto& h : hits) order.push_back(h.second);
    return order;
}

std::unique_ptr<x86::BracketStub> emit(const x86::StubLayout& l, x86::Serialization s) {
    auto r = x86::emit_bracket_stub(l, x86::CallBody{}, s);
    REQUIRE_MESSAGE(r.stub != nullptr, r.error);
    return std::move(r.stub);
}

}  // namespace

TEST_CASE(
    "stub code: each read is the documented seqlock sequence, with sign extension at 48 bits") {
    for (unsigned width : {48u, 64u}) {
        CAPTURE(width);
        auto stub = emit(layout(3, width), x86::Serialization::rdtscp);
        const auto& m = stub->marks();
        const auto start = bytes(*stub, m.bracket_begin, m.body_begin);
        const auto end = bytes(*stub, m.body_end, m.bracket_end);
        for (unsigned i = 0; i < 3; ++i) {
            CHECK(find_all(start, read_sequence(i, width)).size() == 1);
            CHECK(find_all(end, read_sequence(i, width)).size() == 1);
        }
        // Exactly one rdpmc per counter at each end, nothing else executes it.
        const Pattern rdpmc_site = {0xB9, -1, 0, 0, 0, 0x0F, 0x33};
        CHECK(find_all(start, rdpmc_site).size() == 3);
        CHECK(find_all(end, rdpmc_site).size() == 3);
        const Pattern extension = {0x48, 0xC1, 0xE0, 0x10, 0x48, 0xC1, 0xF8, 0x10};
        CHECK(find_all(start, extension).size() == (width == 48 ? 3u : 0u));
    }
}

TEST_CASE("stub code: start reads in layout order, end reads in reverse") {
    auto stub = emit(layout(4, 48), x86::Serialization::rdtscp);
    const auto& m = stub->marks();
    CHECK(page_order(bytes(*stub, m.bracket_begin, m.body_begin), 4) ==
          std::vector<unsigned>{0, 1, 2, 3});
    CHECK(page_order(bytes(*stub, m.body_end, m.bracket_end), 4) ==
          std::vector<unsigned>{3, 2, 1, 0});
}

TEST_CASE("stub code: fences and timestamps where the serialization choice puts them") {
    for (auto s : {x86::Serialization::rdtscp, x86::Serialization::lfence_rdtsc}) {
        CAPTURE(x86::to_string(s));
        auto stub = emit(layout(2, 48), s);
        const auto& m = stub->marks();
        const auto code = bytes(*stub, 0, stub->size());
        CHECK(matches_at(code, m.bracket_begin, kLfence));  // older code completes first
        // Start: ... rdtsc; shl rdx,32; or rax,rdx; mov [rbx+disp32], rax; lfence | body
        const Pattern start_tsc = concat({{0x0F, 0x31, 0x48, 0xC1, 0xE2, 0x20, 0x48, 0x09, 0xD0,
                                           0x48, 0x89, 0x83, -1, -1, -1, -1},
                                          kLfence});
        CHECK(matches_at(code, m.body_begin - start_tsc.size(), start_tsc));
        // End: rdtscp (or lfence; rdtsc); shl; or; mov [rbx], rax; lfence; first end read
        const Pattern end_tsc =
            concat({s == x86::Serialization::rdtscp ? Pattern{0x0F, 0x01, 0xF9}
                                                    : concat({kLfence, {0x0F, 0x31}}),
                    {0x48, 0xC1, 0xE2, 0x20, 0x48, 0x09, 0xD0, 0x48, 0x89, 0x03},
                    kLfence,
                    {0x49, 0xBB}});
        CHECK(matches_at(code, m.body_end, end_tsc));
    }
}

TEST_CASE("stub code: a call body is run(ctx, n) and nothing else") {
    auto stub = emit(layout(1, 48), x86::Serialization::rdtscp);
    const auto& m = stub->marks();
    if (glint::arch::kMicrosoftX64Abi) {
        // mov rcx, r14; mov rdx, r12; sub rsp, 32; call r13; add rsp, 32
        CHECK(bytes(*stub, m.body_begin, m.body_end) ==
              std::vector<std::uint8_t>{0x4C, 0x89, 0xF1, 0x4C, 0x89, 0xE2, 0x48, 0x83, 0xEC, 0x20,
                                        0x41, 0xFF, 0xD5, 0x48, 0x83, 0xC4, 0x20});
        return;
    }
    // mov rdi, r14; mov rsi, r12; call r13
    CHECK(bytes(*stub, m.body_begin, m.body_end) ==
          std::vector<std::uint8_t>{0x4C, 0x89, 0xF7, 0x4C, 0x89, 0xE6, 0x41, 0xFF, 0xD5});
}

TEST_CASE("stub code: an inline body is unrolled U times inside one loop") {
    x86::InlineBody body;
    body.unroll = 5;
    body.emit = [](Xbyak::CodeGenerator& g) { g.imul(g.rax, g.rax); };  // 48 0F AF C0
    auto r = x86::emit_bracket_stub(layout(1, 48), body, x86::Serialization::rdtscp);
    REQUIRE(r.stub != nullptr);
    const auto& m = r.stub->marks();
    const auto code = bytes(*r.stub, m.body_begin, m.body_end);
    const Pattern imul = {0x48, 0x0F, 0xAF, 0xC0};
    const Pattern unrolled = concat({imul, imul, imul, imul, imul});
    const auto at = find_all(code, unrolled);
    REQUIRE(at.size() == 1);
    CHECK(find_all(code, imul).size() == 5);
    // mov r15, r12; jmp check; (padding) loop: imul x5; check: sub r15, 1; jae loop
    CHECK(matches_at(code, 0, concat({{0x4D, 0x89, 0xE7, 0xE9}, kAnyRel32})));
    CHECK(matches_at(code, at[0] + unrolled.size(),
                     concat({{0x49, 0x83, 0xEF, 0x01, 0x0F, 0x83}, kAnyRel32})));
    CHECK(at[0] + unrolled.size() + 10 == code.size());
}

TEST_CASE("stub code: a fixed-counter index (bit 30) is compared and selected as imm32") {
    x86::StubLayout l = layout(1, 48);
    l.counters[0].index = (1u << 30) + 2;  // page index of fixed counter 1
    auto stub = emit(l, x86::Serialization::rdtscp);
    const auto code = bytes(*stub, stub->marks().bracket_begin, stub->marks().body_begin);
    // cmp dword [r11+12], 0x40000002; jne slow; mov ecx, 0x40000001; rdpmc
    const Pattern p = concat({{0x41, 0x81, 0x7B, 0x0C, 0x02, 0x00, 0x00, 0x40, 0x0F, 0x85},
                              kAnyRel32,
                              {0xB9, 0x01, 0x00, 0x00, 0x40, 0x0F, 0x33}});
    CHECK(find_all(code, p).size() == 1);
}

TEST_CASE("stub code: an rdtsc-only stub has no counter reads") {
    x86::StubLayout l;  // no counters: the TSC bracket alone
    auto r = x86::emit_bracket_stub(l, x86::CallBody{});
    REQUIRE(r.stub != nullptr);
    const auto& m = r.stub->marks();
    const auto code = bytes(*r.stub, m.bracket_begin, m.bracket_end);
    CHECK(find_all(code, {0x0F, 0x33}).empty());
    CHECK(find_all(code, {0x0F, 0x31}).size() ==
          (r.stub->serialization() == x86::Serialization::rdtscp ? 1u : 2u));
    x86::BracketRecord rec;
    (*r.stub)([](void*, std::uint64_t) {}, nullptr, 0, &rec);  // runs: no rdpmc to trap
    CHECK(rec.tsc > 0);
    CHECK(rec.retries == 0);
    CHECK(rec.slow_reads == 0);
}
