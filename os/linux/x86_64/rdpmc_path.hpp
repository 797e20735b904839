// os/linux/x86_64/rdpmc_path.hpp: the rdpmc read path (x86-64, Linux).
//
// One JIT stub per group layout reads the hardware members with rdpmc from their perf pages
// around the body: no system call inside the counting window. Software members (and the times,
// when there are any) come from one read(2) of the group just before and just after the stub;
// without them the leader's page gives the times. A failed guard reads that counter out of line
// (read_page, else read(2)): every read is the same running count. begin_pass re-emits the stub
// when an index moved. An exception from the body is rethrown after the group stops.
// Rationale and details: docs/rationale.md, "os/linux/x86_64/rdpmc_path.hpp".
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "arch/x86_64/bracket_stub.hpp"
#include "os/linux/x86_64/rdpmc_grant.hpp"
#include "os/read_path.hpp"

namespace glint::os::linux_::x86_64 {

// Counters of what the path did since it was built (JSON meta, tests).
struct RdpmcStats {
    std::uint64_t brackets = 0;
    std::uint64_t retries = 0;          // seqlock retries inside stubs
    std::uint64_t slow_reads = 0;       // guarded reads served out of line
    std::uint64_t torn_fallbacks = 0;   // of those, reads whose seqlock did not settle
    std::uint64_t read2_fallbacks = 0;  // of those, served by read(2) (no user read granted)
    std::uint64_t failed_reads = 0;     // read(2) fallbacks that failed (their bracket: not ok)
    std::uint64_t restubs = 0;          // stubs re-emitted because an index moved
};

class RdpmcPath final : public ReadPath {
  public:
    // Builds the path over `group` (pages mapped) from its members' pages as probed while the
    // group was enabled (every hardware member granted: decide_rdpmc). nullptr with `error` set
    // when the stub cannot be emitted.
    static std::unique_ptr<RdpmcPath> create(PerfGroup& group,
                                             const std::vector<MemberPage>& probed,
                                             std::string& error);

    std::string_view name() const override { return kUserPathName; }
    std::string describe() const override;
    bool begin_pass() override;
    GroupDelta bracket(Body body, std::uint64_t n) override;
    void end_pass() override;
    double last_window_ticks() const override { return last_ticks_; }
    void meta(MetaWriter& out) const override;

    const RdpmcStats& stats() const { return stats_; }
    // True when brackets read the group with read(2) around the stub (software members, or a
    // leader page without cap_user_time); false: no system call per bracket.
    bool reads_group() const { return group_reads_; }

  private:
    struct Guarded {
        Body body;
        std::exception_ptr error;
    };
    static void run_guarded(void* ctx, std::uint64_t n) noexcept;
    static std::int64_t slow_read(void* self, std::uint32_t slot);

    explicit RdpmcPath(PerfGroup& group) : group_(group) {}
    bool emit(std::string& error);
    bool refresh_layout();
    const void* page_of(std::size_t member) const { return group_.page(member); }

    PerfGroup& group_;
    std::vector<Event> members_;
    std::vector<std::size_t> hardware_;  // stub slot -> group member
    std::vector<std::size_t> software_;  // group members read with read(2)
    arch::x86_64::StubLayout layout_;
    std::unique_ptr<arch::x86_64::BracketStub> stub_;
    bool group_reads_ = true;
    bool slow_failed_ = false;  // a read(2) fallback failed inside the current stub call
    double last_ticks_ = 0;     // TSC ticks of the last stub call
    RdpmcStats stats_;
};

}  // namespace glint::os::linux_::x86_64
