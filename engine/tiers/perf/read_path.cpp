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

// auto, rdpmc (the user path of the arch) and compare try the build's user path first; when
// it is refused the syscall path serves, and the refusal is disclosed with what fixes it —
// except for auto on a build that has no user path at all, where the syscall path is the
// default rather than a fallback.
std::unique_ptr<ReadPath> select_read_path(os::PerfGroup& group, PerfRead requested,
                                           std::vector<Status>& disclosures) {
    if (requested == PerfRead::syscall) return make_syscall_path(group);
    Status refusal{"perf.read-path", Status::State::unavailable, "", ""};
    if (auto user = make_user_read_path(group, refusal)) return user;
    if (!(requested == PerfRead::automatic && refusal.state == Status::State::not_built)) {
        refusal.reason += "; counting with the syscall path (ioctl + read(2))";
        disclosures.push_back(std::move(refusal));
    }
    return make_syscall_path(group);
}

}  // namespace glint::engine::perf
