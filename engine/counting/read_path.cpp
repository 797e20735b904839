// engine/counting/read_path.cpp: read-path plumbing shared by every path: the empty
// calibration body, bracket-cost calibration, meta as JSON, and the choice of path for
// --perf-read (the user-space path itself is the arch×OS back end's: os/read_path.hpp).
#include "engine/counting/read_path.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "engine/counting/messages.hpp"
#include "engine/stats/summary.hpp"
#include "engine/timing/clock.hpp"

namespace glint::engine::counting {
namespace {

[[gnu::noinline]] void run_nothing(void*, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) asm volatile("");
}

}  // namespace

Body empty_body() { return Body{&run_nothing, nullptr}; }

PathCost calibrate_path(ReadPath& path, const std::vector<os::Event>& members,
                        std::size_t brackets) {
    PathCost out;
    const ClockProperties& clock = clock_properties();
    const bool ticks = clock.ticks_usable && clock.ns_per_tick > 0;
    out.clock = ticks ? clock.ticks_name : "steady_clock";
    if (!path.begin_pass()) return out;
    std::vector<GroupDelta> deltas;
    std::vector<double> wall, window;
    deltas.reserve(brackets);
    for (std::size_t i = 0; i < brackets; ++i) {
        wall.push_back(
            time_window_ns(clock, ticks, [&] { deltas.push_back(path.bracket(empty_body(), 0)); }));
        if (ticks) {
            const double inside = path.last_window_ticks();
            if (!std::isnan(inside)) window.push_back(inside * clock.ns_per_tick);
        }
    }
    path.end_pass();
    out.counts = median_cost(deltas);
    out.wall_ns = median(wall);  // nan when empty
    out.window_ns = median(window);
    const auto cycles = std::ranges::find(members, os::Event::cycles);
    const auto slot = static_cast<std::size_t>(cycles - members.begin());
    if (cycles != members.end() && out.counts.measured && slot < out.counts.size)
        out.cycles = out.counts.per_bracket[slot];
    return out;
}

namespace {

// os::MetaWriter over a JSON object.
class JsonMetaWriter final : public os::MetaWriter {
  public:
    explicit JsonMetaWriter(Json& object) : object_(&object) {}
    void text(std::string_view key, std::string_view value) override { at(key) = Json(value); }
    void number(std::string_view key, double value) override { at(key) = Json(value); }
    void flag(std::string_view key, bool value) override { at(key) = Json(value); }
    void null(std::string_view key) override { at(key) = Json(); }
    void texts(std::string_view key, const std::vector<std::string>& values) override {
        Json list = Json::array();
        for (const auto& v : values) list.push_back(v);
        at(key) = std::move(list);
    }
    void records(std::string_view key) override {
        if (!at(key).is_array()) at(key) = Json::array();
    }
    os::MetaWriter& append_record(std::string_view key) override {
        records(key);
        Json& list = at(key);
        list.push_back(Json::object());
        child_ = std::make_unique<JsonMetaWriter>(list.as_array().back());
        return *child_;
    }

  private:
    Json& at(std::string_view key) { return (*object_)[key]; }
    Json* object_;
    std::unique_ptr<JsonMetaWriter> child_;
};

}  // namespace

Json meta_json(const ReadPath& path) {
    Json m = Json::object();
    JsonMetaWriter writer(m);
    path.meta(writer);
    return m;
}

Json meta_json(const UserReadOffer& offer) {
    Json m = Json::object();
    JsonMetaWriter writer(m);
    if (offer.meta) offer.meta(writer);
    return m;
}

Status::State state_of(const UserReadOffer& offer) {
    switch (offer.state) {
        case UserReadOffer::State::available:
            return Status::State::available;
        case UserReadOffer::State::unavailable:
            return Status::State::unavailable;
        case UserReadOffer::State::not_built:
            return Status::State::not_built;
    }
    return Status::State::not_built;
}

namespace {

Status read_path_status(Status::State state, std::string reason, std::string remedy = "") {
    return Status{"perf.read-path", state, std::move(reason), std::move(remedy)};
}

}  // namespace

ReadPathSelection select_read_path(os::PerfGroup& group, PerfRead requested,
                                   std::vector<Status>& disclosures, const UserPathOffer& offer) {
    ReadPathSelection s;
    s.compare = requested == PerfRead::compare;
    s.user = offer(group, requested != PerfRead::syscall);
    if (requested == PerfRead::syscall) {
        s.user.path.reset();
        s.primary = make_syscall_path(group);
        return s;
    }
    // `name` is the arch's path ("rdpmc", "user-access"); `column` the flag value and the
    // compare columns' suffix, the same on every arch.
    const std::string& name = s.user.name;
    const std::string column(kUserPathName);
    if (s.user.path) {
        s.user_offered = true;
        s.primary = std::move(s.user.path);
        if (s.compare) {
            s.compared = make_syscall_path(group);
            std::string reason = fmt::format(
                "--perf-read=compare: every case is counted twice, by {} (the perf columns) and "
                "by syscall; the @{} and @syscall columns show both paths side by side",
                name, column);
            if (name != column)
                reason += fmt::format(" (@{} names the user-space path on every arch)", column);
            disclosures.push_back(read_path_status(Status::State::available, std::move(reason)));
        }
        return s;
    }
    s.primary = make_syscall_path(group);
    std::string reason;
    switch (requested) {
        case PerfRead::automatic:
            reason = fmt::format(
                "{} path not used: {}; counting with the syscall path (ioctl + "
                "read(2))",
                name, s.user.reason);
            break;
        case PerfRead::rdpmc:
            reason = fmt::format(
                "--perf-read={} asked for the user-space path, which is not "
                "available: {}; counting with the syscall path (ioctl + read(2))",
                column, s.user.reason);
            break;
        default:
            reason = fmt::format(
                "--perf-read=compare: the {} side is not available: {}; only "
                "the syscall path counts and the @{} columns show —",
                name, s.user.reason, column);
            break;
    }
    disclosures.push_back(read_path_status(state_of(s.user), std::move(reason), s.user.remedy));
    return s;
}

}  // namespace glint::engine::counting
