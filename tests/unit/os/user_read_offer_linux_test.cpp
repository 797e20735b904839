// The arch's user-space read offer on the real kernel: a group opened from event specs (raw:,
// pfm:, tracepoints) is never offered a user path, which indexes generic members.
#include <doctest/doctest.h>

#include <linux/perf_event.h>

#include "engine/counting/group_opener.hpp"
#include "engine/counting/read_path.hpp"

using namespace glint;
using namespace glint::engine::counting;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("user read offer: a group opened from event specs is read with read(2), saying why") {
    os::GroupSpec spec;
    os::EventSpec task_clock;
    task_clock.type = os::kSoftwareEventType;
    task_clock.config = PERF_COUNT_SW_TASK_CLOCK;
    task_clock.name = "task-clock";
    spec.specs = {task_clock};
    os::PerfGroup specs_group;
    os::OpenFailure failure;
    REQUIRE_MESSAGE(specs_group.open(spec, failure), "perf_event_open: errno " << failure.error);
    CHECK(contains(generic_members_reason(specs_group), "event specs"));

    os::PerfGroup generic_group;
    REQUIRE(generic_group.open(os::GroupSpec{software_events()}, failure));
    CHECK(generic_members_reason(generic_group).empty());

    const UserReadOffer offer = glint::os::offer_user_read_path(specs_group, true);
    CHECK(offer.path == nullptr);
    if (offer.state != UserReadOffer::State::not_built) {  // an arch with a user path refuses it
        CHECK(offer.state == UserReadOffer::State::unavailable);
        CHECK(contains(offer.reason, "event specs"));
    }
}
