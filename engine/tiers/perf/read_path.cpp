// Read-path plumbing shared by every path: the empty calibration body, bracket-cost
// calibration, and the choice of path for --perf-read.
#include "engine/tiers/perf/read_path.hpp"

namespace glint::engine::perf {
namespace {

[[gnu::noinline]] void run_nothing(void*, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) asm volatile("");
}

}  // namespace

Body empty_body() { return Body{&run_nothing, nullptr}; }

BracketCost calibrate_bracket_cost(ReadPath& path, std::size_t brackets) {
    std::vector<GroupDelta> deltas;
    if (!path.begin_pass()) return BracketCost{};
    deltas.reserve(brackets);
    for (std::size_t i = 0; i < brackets; ++i) deltas.push_back(path.bracket(empty_body(), 0));
    path.end_pass();
    return median_cost(deltas);
}

// The rdpmc path (x86-64) plugs in here: automatic/rdpmc/compare try it first when the
// group's pages grant user reads. Until it lands every request is served by the syscall path,
// and an explicit rdpmc/compare request is disclosed as not built.
std::unique_ptr<ReadPath> select_read_path(os::PerfGroup& group, PerfRead requested,
                                           std::vector<Status>& disclosures) {
    if (requested == PerfRead::rdpmc || requested == PerfRead::compare) {
        disclosures.push_back(Status{
            "perf.read-path", Status::State::not_built,
            "--perf-read asked for the rdpmc path, which this build does not include; "
            "counting with the syscall path (ioctl + read(2))",
            ""});
    }
    return make_syscall_path(group);
}

}  // namespace glint::engine::perf
