// The arch/aarch64 readers: every table entry maps to its register, and the direct reads agree
// with the PMSELR_EL0/PMXEVCNTR_EL0 route and with read(2) on the guest's real (emulated) PMU.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <utility>

#include "arch/aarch64/counters.hpp"
#include "os/linux/sys.hpp"
#include "preamble.hpp"

namespace {

// A reader that reports which register the dispatch chose instead of reading it.
struct WhichRegister {
    template <unsigned Reg>
    static std::uint64_t read() {
        return Reg;
    }
};

template <std::size_t... I>
void check_fixed_readers(std::index_sequence<I...>) {
    // read_counter_at<Index> for every page index 1..32.
    const std::uint64_t got[] = {aarch64::read_counter_at<I + 1, WhichRegister>()...};
    for (std::size_t i = 0; i < sizeof...(I); ++i) {
        INFO("page index " << i + 1);
        CHECK(got[i] == (i + 1 == 32 ? aarch64::kCycleCounterReg : i));
    }
}

// The system register an MRS instruction word reads, as op0:op1:CRn:CRm:op2; ~0u if not MRS.
struct SysReg {
    unsigned op0, op1, crn, crm, op2;
    bool operator==(const SysReg&) const = default;
};
std::ostream& operator<<(std::ostream& out, const SysReg& r) {
    return out << "S" << r.op0 << "_" << r.op1 << "_C" << r.crn << "_C" << r.crm << "_" << r.op2;
}

bool decode_mrs(std::uint32_t insn, SysReg& out) {
    if ((insn & 0xFFF00000u) != 0xD5300000u) return false;  // MRS Xt, <sysreg>
    out = {2 + ((insn >> 19) & 1), (insn >> 16) & 7, (insn >> 12) & 15, (insn >> 8) & 15,
           (insn >> 5) & 7};
    return true;
}

template <unsigned Reg>
[[gnu::noinline]] std::uint64_t probe_register() {
    return aarch64::Mrs::read<Reg>();
}

// The register the first MRS of probe_register<Reg> reads.
template <unsigned Reg>
bool register_read_by(SysReg& out) {
    const auto* code = reinterpret_cast<const std::uint32_t*>(
        reinterpret_cast<std::uintptr_t>(&probe_register<Reg>));
    for (int i = 0; i < 16; ++i) {
        if (decode_mrs(code[i], out)) return true;
    }
    return false;
}

template <std::size_t... I>
void check_encodings(std::index_sequence<I...>) {
    auto check_one = [](unsigned reg, bool found, const SysReg& got) {
        INFO("register id " << reg);
        REQUIRE(found);
        // PMEVCNTR<n>_EL0 is S3_3_C14_C(8 + n/8)_(n%8); PMCCNTR_EL0 is S3_3_C9_C13_0.
        const SysReg want = reg == aarch64::kCycleCounterReg
                                ? SysReg{3, 3, 9, 13, 0}
                                : SysReg{3, 3, 14, 8 + (reg >> 3), reg & 7};
        CHECK(got == want);
    };
    SysReg got[sizeof...(I)] = {};
    const bool found[] = {register_read_by<I>(got[I])...};
    (check_one(I, found[I], got[I]), ...);
}

// A seqlock-stable reading of one counter three ways: direct, selected, direct.
struct Witness {
    std::uint64_t direct_before, selected, direct_after;
};

bool witness(const perf_event_mmap_page* page, std::uint32_t index, Witness& w) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::uint32_t seq = linux_::detail::load(page->lock);
        linux_::detail::compiler_barrier();
        if (linux_::detail::load(page->index) != index) return false;
        w.direct_before = aarch64::read_counter(index);
        w.selected = aarch64::read_selected_counter(index - 1);
        w.direct_after = aarch64::read_counter(index);
        linux_::detail::compiler_barrier();
        if (linux_::detail::load(page->lock) == seq) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("the reader switch maps every page index to its own register") {
    for (std::uint32_t index = 1; index <= 31; ++index) {
        INFO("index " << index);
        CHECK(aarch64::read_counter<WhichRegister>(index) == index - 1);
        CHECK(aarch64::register_of_index(index) == index - 1);
    }
    CHECK(aarch64::read_counter<WhichRegister>(32) == aarch64::kCycleCounterReg);
    CHECK(aarch64::register_of_index(32) == aarch64::kCycleCounterReg);
    CHECK(aarch64::register_of_index(0) == aarch64::kNoRegister);
    CHECK(aarch64::register_of_index(33) == aarch64::kNoRegister);
    check_fixed_readers(std::make_index_sequence<32>{});
}

TEST_CASE("every mrs reader encodes the register it is named after (12 and 13 included)") {
    check_encodings(std::make_index_sequence<32>{});
}

TEST_CASE("direct mrs reads agree with PMSELR_EL0/PMXEVCNTR_EL0 on every implemented counter") {
    // Separate events, each enabled after a different amount of work, so every counter holds a
    // value at least ~1000 away from its neighbours: a reader reading the wrong register cannot
    // land between the two direct reads of the right one.
    constexpr std::size_t kEvents = 6;
    Events events(std::vector<EventSpec>(kEvents), OpenOptions{.as_group = false});
    REQUIRE_MESSAGE(events.ok(), events.error());
    for (std::size_t i = 0; i < kEvents; ++i) {
        linux_::ioctl_retry(events.fd(kEvents - 1 - i), PERF_EVENT_IOC_ENABLE, 0);
        glint::guest::loop_3(nullptr, 400);
    }
    std::size_t checked = 0;
    for (std::size_t i = 0; i < kEvents; ++i) {
        const linux_::PageCapabilities caps = linux_::capabilities_of(events.page(i));
        if (!caps.user_rdpmc || caps.index == 0) continue;  // not on a counter now
        REQUIRE(caps.index <= aarch64::kEventCounterCount);
        Witness w{};
        REQUIRE(witness(events.page(i), caps.index, w));
        const auto value = [&](std::uint64_t raw) {
            return linux_::sign_extend(raw, caps.pmc_width);
        };
        INFO("event " << i << " index " << caps.index << " width " << caps.pmc_width);
        CHECK(value(w.direct_before) <= value(w.selected));
        CHECK(value(w.selected) <= value(w.direct_after));
        CHECK(value(w.direct_after) - value(w.direct_before) < 200);
        ++checked;
    }
    std::printf("glint-guest: %zu event counters checked against PMSELR_EL0/PMXEVCNTR_EL0\n",
                checked);
    CHECK(checked >= 4);
}

TEST_CASE("mrs reads through the perf page agree with read(2) for cycles and instructions") {
    for (const bool want64 : {true, false}) {
        Events group({{linux_::kArmv8CpuCycles}, {linux_::kArmv8InstRetired}},
                     OpenOptions{.want_64bit = want64});
        REQUIRE_MESSAGE(group.ok(), group.error());
        group.enable();
        glint::guest::loop_3(nullptr, 1000);
        // The cycle counter is 64-bit on every PMUv3; event counters only with PMUv3p5 (max).
        const unsigned widths[2] = {
            want64 ? 64u : 32u,
            (want64 && glint::guest::cpu_has_64bit_event_counters()) ? 64u : 32u};
        for (std::size_t i = 0; i < 2; ++i) {
            INFO("want64 " << want64 << " slot " << i);
            const linux_::PageCapabilities caps = linux_::capabilities_of(group.page(i));
            CHECK(caps.user_rdpmc);
            CHECK(caps.index == (i == 0 ? aarch64::kCycleCounterIndex : 1u));
            CHECK(caps.pmc_width == widths[i]);
            const linux_::PageReading before = linux_::read_page<aarch64::Pmu>(group.page(i));
            const std::int64_t syscall = group.read_count(i);
            const linux_::PageReading after = linux_::read_page<aarch64::Pmu>(group.page(i));
            REQUIRE(before.user_read);
            REQUIRE(after.user_read);
            CHECK(before.count > 0);
            CHECK(before.count <= syscall);
            CHECK(syscall <= after.count);
            CHECK(after.count - before.count < 5000);
            CHECK(before.enabled > 0);
            CHECK(before.running == before.enabled);
        }
        group.disable();
    }
}
