// select_read_path and calibrate_path with a fake user-space path (every arch): which path serves
// each --perf-read value, what is disclosed, and what calibration reports per path.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>

#include "engine/counting/read_path.hpp"
#include "engine/timing/clock.hpp"

using namespace glint;
using namespace glint::engine;
using namespace glint::engine::counting;

namespace {

// A path that reports fixed deltas: member i counts (i + 1) * 10 per bracket, and a fixed
// number of timestamp ticks inside its window.
class FakePath final : public ReadPath {
  public:
    explicit FakePath(std::size_t members) : members_(members) {}
    std::string_view name() const override { return kUserPathName; }
    std::string describe() const override { return "fake user path"; }
    bool begin_pass() override {
        ++passes;
        return true;
    }
    GroupDelta bracket(Body body, std::uint64_t n) override {
        body.run(body.ctx, n);
        GroupDelta d;
        d.size = members_;
        for (std::size_t i = 0; i < members_; ++i) d.counts[i] = (i + 1) * 10;
        d.enabled = d.running = 100;
        d.ok = true;
        return d;
    }
    double last_window_ticks() const override { return 1000; }
    int passes = 0;

  private:
    std::size_t members_;
};

struct Offers {
    int calls = 0;
    bool last_build = false;
    bool offer = true;
    UserReadOffer::State state = UserReadOffer::State::unavailable;

    UserPathOffer fn() {
        return [this](os::PerfGroup&, bool build) {
            ++calls;
            last_build = build;
            UserReadOffer o;
            o.facts = {"rdpmc sysfs: fake"};
            if (build && offer) {
                o.path = std::make_unique<FakePath>(2);
                o.state = UserReadOffer::State::available;
            } else if (build) {
                o.state = state;
                o.reason = "cap_user_rdpmc 0 on the page of cycles";
                o.remedy = "echo 1 > /sys/.../rdpmc";
            }
            return o;
        };
    }
};

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("read-path selection: auto and rdpmc take an offered user path, disclosing nothing") {
    for (PerfRead r : {PerfRead::automatic, PerfRead::rdpmc}) {
        os::PerfGroup group;
        Offers offers;
        std::vector<Status> disclosed;
        const ReadPathSelection s = select_read_path(group, r, disclosed, offers.fn());
        CHECK(offers.last_build);
        REQUIRE(s.primary != nullptr);
        CHECK(s.primary->name() == "rdpmc");
        CHECK(s.user_offered);
        CHECK(s.compared == nullptr);
        CHECK_FALSE(s.compare);
        CHECK(disclosed.empty());
        CHECK(s.user.facts == std::vector<std::string>{"rdpmc sysfs: fake"});
    }
}

TEST_CASE("read-path selection: a user path not offered falls back to syscall, saying why") {
    os::PerfGroup group;
    Offers offers;
    offers.offer = false;
    SUBCASE("auto") {
        std::vector<Status> disclosed;
        const ReadPathSelection s =
            select_read_path(group, PerfRead::automatic, disclosed, offers.fn());
        CHECK(s.primary->name() == "syscall");
        REQUIRE(disclosed.size() == 1);
        CHECK(disclosed[0].capability == "perf.read-path");
        CHECK(disclosed[0].state == Status::State::unavailable);
        CHECK(disclosed[0].reason ==
              "rdpmc path not used: cap_user_rdpmc 0 on the page of cycles; counting with the "
              "syscall path (ioctl + read(2))");
        CHECK(disclosed[0].remedy == "echo 1 > /sys/.../rdpmc");
    }
    SUBCASE("rdpmc, in a build without one: not built") {
        offers.state = UserReadOffer::State::not_built;
        std::vector<Status> disclosed;
        const ReadPathSelection s =
            select_read_path(group, PerfRead::rdpmc, disclosed, offers.fn());
        CHECK(s.primary->name() == "syscall");
        REQUIRE(disclosed.size() == 1);
        CHECK(disclosed[0].state == Status::State::not_built);
        CHECK(contains(disclosed[0].reason,
                       "--perf-read=rdpmc asked for the user-space path, "
                       "which is not available: cap_user_rdpmc 0"));
    }
}

TEST_CASE("read-path selection: syscall asks only for the facts and discloses nothing") {
    os::PerfGroup group;
    Offers offers;
    std::vector<Status> disclosed;
    const ReadPathSelection s = select_read_path(group, PerfRead::syscall, disclosed, offers.fn());
    CHECK(offers.calls == 1);
    CHECK_FALSE(offers.last_build);
    CHECK(s.primary->name() == "syscall");
    CHECK_FALSE(s.user_offered);
    CHECK(s.user.path == nullptr);
    CHECK(s.user.facts.size() == 1);
    CHECK(disclosed.empty());
}

TEST_CASE("read-path selection: compare keeps both paths, or syscall alone with the reason") {
    os::PerfGroup group;
    Offers offers;
    std::vector<Status> disclosed;
    const ReadPathSelection both =
        select_read_path(group, PerfRead::compare, disclosed, offers.fn());
    CHECK(both.compare);
    CHECK(both.primary->name() == "rdpmc");
    REQUIRE(both.compared != nullptr);
    CHECK(both.compared->name() == "syscall");
    REQUIRE(disclosed.size() == 1);
    CHECK(disclosed[0].state == Status::State::available);

    offers.offer = false;
    disclosed.clear();
    const ReadPathSelection alone =
        select_read_path(group, PerfRead::compare, disclosed, offers.fn());
    CHECK(alone.compare);
    CHECK(alone.primary->name() == "syscall");
    CHECK(alone.compared == nullptr);
    REQUIRE(disclosed.size() == 1);
    CHECK(disclosed[0].reason ==
          "--perf-read=compare: the rdpmc side is not available: cap_user_rdpmc 0 on the page of "
          "cycles; only the syscall path counts and the @rdpmc columns show —");
}

TEST_CASE("calibrate_path: counts per member, cycles from the cycles member, window time") {
    FakePath path(3);
    const PathCost cost = calibrate_path(
        path, {os::Event::instructions, os::Event::cycles, os::Event::page_faults}, 5);
    REQUIRE(cost.counts.measured);
    CHECK(cost.counts.samples == 5);
    CHECK(cost.counts.per_bracket[0] == 10);
    CHECK(cost.cycles == 20);  // the cycles member is the second
    CHECK(cost.wall_ns >= 0);
    const ClockProperties& clock = clock_properties();
    if (clock.ticks_usable) {
        CHECK(cost.clock == clock.ticks_name);
        CHECK(cost.window_ns == doctest::Approx(1000 * clock.ns_per_tick));
    } else {
        CHECK(cost.clock == "steady_clock");
        CHECK(std::isnan(cost.window_ns));
    }
    CHECK(path.passes == 1);

    const PathCost software =
        calibrate_path(path, {os::Event::task_clock, os::Event::page_faults}, 3);
    CHECK(std::isnan(software.cycles));  // no cycles member: not measured, never 0
}
