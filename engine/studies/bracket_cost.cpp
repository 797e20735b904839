// glint::BracketCost (<glint/bracket_cost.hpp>): the public face of the bracket-cost study, and
// the only place outside the counting layer that opens its group and paths for it. The figures
// are engine/counting/bracket_study.hpp's; this file opens what they need and maps them out.
#include <glint/bracket_cost.hpp>

#include <cstddef>
#include <utility>
#include <vector>

#include "engine/counting/bracket_study.hpp"
#include "engine/counting/group_opener.hpp"
#include "engine/counting/read_path.hpp"
#include "engine/timing/clock.hpp"

namespace glint {

namespace counting = engine::counting;

struct BracketCost::Impl {
    // The group first: the paths hold references to it and are destroyed before it.
    counting::OpenedGroup opened;
    std::unique_ptr<counting::ReadPath> syscall;
    std::unique_ptr<counting::ReadPath> user;
    std::string failure;
    std::size_t anchor = 0;
    std::string anchor_name;
    std::string user_name;
    std::string user_absent;

    counting::ReadPath* path(Path which) const {
        return which == Path::user ? user.get() : syscall.get();
    }
    void open();
};

// Opens the group as the perf tier asks for it (user reads requested: arm64's per-event opt-in)
// and both paths over it.
void BracketCost::Impl::open() {
    counting::OpenRequest request;
    request.user_access = true;
    opened = counting::open_counting_group(request);
    if (!opened.usable()) {
        failure = opened.statuses.front().reason;
        // Only the facts (nothing is built over the closed group): the path's name.
        user_name = os::offer_user_read_path(opened.group, false).name;
        user_absent = "the counting group did not open: " + failure;
        return;
    }
    os::PerfGroup& group = opened.group;
    const std::vector<os::Event>& members = group.spec().events;
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (members[i] == os::Event::instructions) anchor = i, anchor_name = "instr";
        if (members[i] == os::Event::task_clock) anchor = i, anchor_name = "tc ns";
    }
    syscall = counting::make_syscall_path(group);
    counting::UserReadOffer offer = os::offer_user_read_path(group, true);
    user = std::move(offer.path);
    user_name = offer.name;
    if (!user) user_absent = offer.reason;
}

namespace {

PathStudy published(const counting::BracketingStudy& s) {
    PathStudy out;
    out.ok = s.ok;
    out.failure = s.failure;
    out.iterations = s.iterations;
    out.batch = s.batch;
    out.clock = s.cost.clock;
    out.ns_per_bracket = s.cost.wall_ns;
    out.window_ns = s.cost.window_ns;
    out.cycles_per_bracket = s.cost.cycles;
    out.anchor_per_bracket = s.anchor_per_bracket;
    out.batch1_raw = s.batch1_raw;
    out.batch1 = s.batch1;
    out.batched_raw = s.batched_raw;
    out.batched = s.batched;
    return out;
}

}  // namespace

BracketCost::BracketCost() : impl_(std::make_unique<Impl>()) { impl_->open(); }
BracketCost::~BracketCost() = default;
BracketCost::BracketCost(BracketCost&&) noexcept = default;
BracketCost& BracketCost::operator=(BracketCost&&) noexcept = default;

bool BracketCost::ok() const { return impl_->opened.usable(); }
const std::string& BracketCost::failure() const { return impl_->failure; }
const std::string& BracketCost::anchor() const { return impl_->anchor_name; }
const std::string& BracketCost::user_path_name() const { return impl_->user_name; }
bool BracketCost::user_path_available() const { return impl_->user != nullptr; }
const std::string& BracketCost::user_path_absent() const { return impl_->user_absent; }

PathStudy BracketCost::study_batch(Path which, detail::Batch body, std::uint64_t iterations,
                                   std::uint64_t batch) {
    counting::ReadPath* path = impl_->path(which);
    if (!path) {
        PathStudy absent;
        absent.failure = which == Path::user
                             ? impl_->user_name + " is not available here: " + impl_->user_absent
                             : "the counting group did not open: " + impl_->failure;
        return absent;
    }
    return published(counting::study_path(*path, impl_->opened.group.spec().events, impl_->anchor,
                                          counting::body_of(body), iterations, batch));
}

bool BracketCost::begin_pass(Path which) {
    counting::ReadPath* path = impl_->path(which);
    return path && path->begin_pass();
}

bool BracketCost::bracket(Path which) {
    counting::ReadPath* path = impl_->path(which);
    return path && path->bracket(counting::empty_body(), 0).ok;
}

void BracketCost::end_pass(Path which) {
    if (counting::ReadPath* path = impl_->path(which)) path->end_pass();
}

bool BracketCost::ioctl_pair() {
    os::PerfGroup& group = impl_->opened.group;
    return ok() && group.enable() && group.disable();
}

std::uint64_t BracketCost::group_read() {
    os::GroupReading reading;
    return ok() && impl_->opened.group.read(reading) ? reading.enabled : 0;
}

double BracketCost::timestamp_pair_ns() {
    const engine::ClockProperties& clock = engine::clock_properties();
    return clock.ticks_usable ? clock.tick_bracket_ns : PathStudy::kNaN;
}

}  // namespace glint
