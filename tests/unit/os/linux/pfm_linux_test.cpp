// libpfm4 through dlopen, for real. Name-to-encoding tests force a PMU model with libpfm's
// LIBPFM_FORCE_PMU, so they run on any x86 or arm host, PMU or not; a missing library is
// simulated by loading a soname that does not exist.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "os/pfm.hpp"

using glint::os::pfm_encode;
using glint::os::pfm_library;
using glint::os::pfm_reload_for_tests;
using glint::os::PfmEncoding;

namespace {

// Forces libpfm's PMU model for the scope (and restores auto-detection after).
struct ForcedPmu {
    explicit ForcedPmu(const char* model) {
        ::setenv("LIBPFM_FORCE_PMU", model, 1);
        pfm_reload_for_tests();
        REQUIRE_MESSAGE(pfm_library().loaded, pfm_library().error);
    }
    ~ForcedPmu() {
        ::unsetenv("LIBPFM_FORCE_PMU");
        pfm_reload_for_tests();
    }
};

PfmEncoding encoded(const std::string& name, bool user = true, bool kernel = true) {
    PfmEncoding e = pfm_encode(name, user, kernel);
    REQUIRE_MESSAGE(e.outcome == PfmEncoding::Outcome::encoded, name << ": " << e.error);
    return e;
}

constexpr std::uint32_t kRaw = glint::os::kRawEventType;

}  // namespace

TEST_CASE("pfm: Intel Skylake names encode to their event select and umask (forced model)") {
    ForcedPmu skl("skl");
    const PfmEncoding any = encoded("INST_RETIRED:ANY_P");
    CHECK(any.event.type == kRaw);
    CHECK(any.event.config == 0xc0);
    CHECK(any.event.name == "INST_RETIRED:ANY_P");
    CHECK(any.qualified.rfind("skl::INST_RETIRED:ANY_P", 0) == 0);
    CHECK_FALSE(any.event.exclude_user);
    CHECK_FALSE(any.event.exclude_kernel);

    CHECK(encoded("MEM_LOAD_RETIRED:L1_HIT").event.config == 0x1d1);   // umask 0x01, event 0xd1
    CHECK(encoded("MEM_LOAD_RETIRED:L1_MISS").event.config == 0x8d1);  // umask 0x08
    CHECK(encoded("skl::BR_INST_RETIRED:NEAR_TAKEN").event.config == 0x20c4);
    CHECK(encoded("UOPS_ISSUED:ANY:c=1").event.config == 0x100010e);  // cmask in bits 24..31
}

TEST_CASE("pfm: AMD Zen 2 names encode, unit masks included (forced model)") {
    ForcedPmu zen2("amd64_fam17h_zen2");
    const PfmEncoding flops = encoded("RETIRED_SSE_AVX_FLOPS:ADD_SUB_FLOPS");
    CHECK(flops.event.type == kRaw);
    CHECK(flops.event.config == 0x103);  // umask 0x01, event 0x03
    CHECK(encoded("RETIRED_INSTRUCTIONS").event.config == 0xc0);
    CHECK(encoded("RETIRED_BRANCH_INSTRUCTIONS").event.config == 0xc2);
}

TEST_CASE("pfm: privilege levels become exclude flags, from the caller or a :u/:k in the name") {
    ForcedPmu skl("skl");
    const PfmEncoding user = encoded("INST_RETIRED:ANY_P", true, false);
    CHECK_FALSE(user.event.exclude_user);
    CHECK(user.event.exclude_kernel);
    const PfmEncoding kernel = encoded("INST_RETIRED:ANY_P", false, true);
    CHECK(kernel.event.exclude_user);
    CHECK_FALSE(kernel.event.exclude_kernel);
    CHECK(encoded("INST_RETIRED:ANY_P:u").event.exclude_kernel);
}

TEST_CASE("pfm: unknown events and bad unit masks are told apart") {
    ForcedPmu skl("skl");
    const PfmEncoding missing = pfm_encode("NO_SUCH_EVENT");
    CHECK(missing.outcome == PfmEncoding::Outcome::unknown_event);
    CHECK(missing.error == "event not found");
    const PfmEncoding umask = pfm_encode("INST_RETIRED:NO_SUCH_UMASK");
    CHECK(umask.outcome == PfmEncoding::Outcome::invalid);
    CHECK_FALSE(umask.error.empty());
}

TEST_CASE("pfm: the kernel's generic software events resolve through libpfm's perf PMU") {
    pfm_reload_for_tests();
    REQUIRE_MESSAGE(pfm_library().loaded, pfm_library().error);
    const PfmEncoding task_clock = encoded("PERF_COUNT_SW_TASK_CLOCK");
    CHECK(task_clock.event.type == glint::os::kSoftwareEventType);
    CHECK(task_clock.event.config == 1);  // PERF_COUNT_SW_TASK_CLOCK
    CHECK(encoded("perf::PERF_COUNT_SW_PAGE_FAULTS").event.config == 2);
}

TEST_CASE("pfm: a library that cannot be loaded degrades every encoding with the loader's reason") {
    pfm_reload_for_tests("libpfm-glint-test-absent.so.4");
    const auto& library = pfm_library();
    CHECK_FALSE(library.loaded);
    CHECK(library.supported);
    CHECK(library.soname == "libpfm-glint-test-absent.so.4");
    CHECK(library.error.find("libpfm-glint-test-absent.so.4") != std::string::npos);
    const PfmEncoding e = pfm_encode("INST_RETIRED:ANY_P");
    CHECK(e.outcome == PfmEncoding::Outcome::library_absent);
    CHECK(e.error == library.error);
    pfm_reload_for_tests();
    CHECK(pfm_library().loaded);
}
