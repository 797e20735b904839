// What a {cycles, instructions} bracket costs, in instructions (exact under -icount):
//   added — what bracketing adds to a batch call: an indirect call of the bracket function with
//           an empty batch, minus the same empty batch called directly, both counted by an
//           independent meter event. The specialised bracket's is asserted exactly
//           (tests/support/headline_costs.hpp).
//   full  — the bracketed call as a whole (its call, the empty batch, the return), metered;
//   self  — what the bracket's own INST_RETIRED slot reports for an empty body (the number a
//           calibration subtracts).
// For the syscall bracket (ENABLE, the batch, DISABLE, one group read) the meter and the group
// count kernel instructions too. Lines starting "glint-measure:" are what the rig reports.
#include <doctest/doctest.h>

#include <linux/perf_event.h>
#include <sys/ioctl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include "os/linux/aarch64/bracket.hpp"
#include "os/linux/sys.hpp"
#include "preamble.hpp"
#include "support/headline_costs.hpp"

namespace {

constexpr int kRepeats = 15;  // the minimum drops interrupts (the meter counts the kernel)

struct Meter {
    Events event{{{linux_::kArmv8InstRetired, /*exclude_kernel=*/false}},
                 OpenOptions{.as_group = false}};
};

using Thunk = void (*)(void* context);

// Min over repeats of the meter's delta around thunk(context).
[[gnu::noinline]] std::int64_t metered(const Meter& meter, Thunk thunk, void* context) {
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    const perf_event_mmap_page* page = meter.event.page(0);
    for (int r = 0; r < kRepeats; ++r) {
        const std::int64_t a = linux_::read_page<aarch64::Pmu, false>(page).count;
        thunk(context);
        const std::int64_t b = linux_::read_page<aarch64::Pmu, false>(page).count;
        best = std::min(best, b - a);
    }
    return best;
}

[[gnu::noinline]] void nothing(void*) { asm volatile(""); }

struct UserBracket {
    linux_::Arm64BracketFn fn;
    linux_::Arm64BracketCall call;
    std::int64_t deltas[linux_::Arm64GroupPages::kMaxSlots];
    UserBracket(linux_::Arm64BracketFn f, const Events& group)
        : fn(f), call{group.bracket_pages(), &glint::guest::empty_batch, nullptr, 0, deltas} {}
};
// One indirect call of the bracket function, as a tier makes it.
[[gnu::noinline]] void run_user_bracket(void* context) {
    auto* b = static_cast<UserBracket*>(context);
    b->fn(b->call);
}

// The batch call alone, made the same way: what a bracket adds is the difference.
[[gnu::noinline]] void run_batch_alone(void* context) {
    auto* b = static_cast<UserBracket*>(context);
    b->call.batch(b->call.context, b->call.iterations);
}

// The syscall bracket the perf tier's fallback path uses: ENABLE the group, run the batch,
// DISABLE it, one read(2) of the group.
struct SyscallBracket {
    int leader;
    std::uint64_t buffer[3 + 2];
};
[[gnu::noinline]] void run_syscall_bracket(void* context) {
    auto* b = static_cast<SyscallBracket*>(context);
    linux_::ioctl_retry(b->leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
    glint::guest::empty_batch(nullptr, 0);
    linux_::ioctl_retry(b->leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
    linux_::read_retry(b->leader, b->buffer, sizeof b->buffer);
}

std::int64_t user_self_cost(UserBracket& b) {
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    for (int r = 0; r < kRepeats; ++r) {
        run_user_bracket(&b);
        best = std::min(best, b.deltas[1]);
    }
    return best;
}

}  // namespace

TEST_CASE("bracket cost of {cycles, instructions}: user access vs syscall") {
    const std::string cpu_name = glint::guest::guest_cpu();
    const char* cpu = cpu_name.c_str();
    // The group first, so it gets the counters a fresh group gets (32, then 1); the meter next.
    Events group({{linux_::kArmv8CpuCycles}, {linux_::kArmv8InstRetired}},
                 OpenOptions{.want_64bit = true});
    REQUIRE_MESSAGE(group.ok(), group.error());
    group.enable();
    Meter meter;
    REQUIRE_MESSAGE(meter.event.ok(), meter.event.error());
    meter.event.enable();
    const std::int64_t baseline = metered(meter, &nothing, nullptr);
    const linux_::Arm64Layout layout = group.layout();
    REQUIRE(layout.specialised);
    const unsigned width = layout.event_width;

    UserBracket specialised(linux_::select_user_access_bracket(layout), group);
    UserBracket generic(&linux_::run_generic_user_access_bracket, group);
    const std::int64_t batch_alone = metered(meter, &run_batch_alone, &specialised) - baseline;
    const std::int64_t specialised_full =
        metered(meter, &run_user_bracket, &specialised) - baseline;
    const std::int64_t generic_full = metered(meter, &run_user_bracket, &generic) - baseline;
    const std::int64_t specialised_self = user_self_cost(specialised);
    const std::int64_t generic_self = user_self_cost(generic);
    group.disable();

    Events syscall_group({{linux_::kArmv8CpuCycles, false}, {linux_::kArmv8InstRetired, false}},
                         OpenOptions{.user_access = false});
    REQUIRE_MESSAGE(syscall_group.ok(), syscall_group.error());
    SyscallBracket sb{syscall_group.fd(0), {}};
    const std::int64_t syscall_full = metered(meter, &run_syscall_bracket, &sb) - baseline;
    std::int64_t syscall_self = std::numeric_limits<std::int64_t>::max();
    for (int r = 0; r < kRepeats; ++r) {
        syscall_group.reset();
        run_syscall_bracket(&sb);
        syscall_self = std::min(syscall_self, static_cast<std::int64_t>(sb.buffer[3 + 1]));
    }
    meter.event.disable();

    std::printf(
        "glint-measure: cpu=%s user-access bracket {cycles,instructions} "
        "(instructions %u-bit), specialised: full=%lld added=%lld self=%lld instructions\n",
        cpu, width, static_cast<long long>(specialised_full),
        static_cast<long long>(specialised_full - batch_alone),
        static_cast<long long>(specialised_self));
    std::printf(
        "glint-measure: cpu=%s user-access bracket {cycles,instructions} "
        "(instructions %u-bit), generic: full=%lld added=%lld self=%lld instructions\n",
        cpu, width, static_cast<long long>(generic_full),
        static_cast<long long>(generic_full - batch_alone), static_cast<long long>(generic_self));
    std::printf(
        "glint-measure: cpu=%s syscall bracket {cycles,instructions} (ENABLE, DISABLE, "
        "read), kernel counted: full=%lld self=%lld instructions\n",
        cpu, static_cast<long long>(syscall_full), static_cast<long long>(syscall_self));

    const std::int64_t specialised_added = specialised_full - batch_alone;
    CHECK(specialised_added > 0);
    // Exactly the table's figure (docs/hot-loop.md quotes it): a change of cost is a deliberate
    // edit.
    CHECK(specialised_added == glint::test::headline::kArm64SpecialisedBracket.instructions);
    CHECK(specialised_self < specialised_added);
    CHECK(specialised_full <= generic_full);
    CHECK(syscall_full > specialised_full);
}
