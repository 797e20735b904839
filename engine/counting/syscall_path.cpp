// The syscall read path: ioctl(ENABLE) → body → ioctl(DISABLE) → one read(2) of the group.
// The group only counts inside the bracket, so consecutive reads difference cleanly.
#include <memory>

#include "engine/counting/read_path.hpp"

namespace glint::engine::counting {
namespace {

class SyscallPath final : public ReadPath {
  public:
    explicit SyscallPath(os::PerfGroup& group) : group_(group) {}

    std::string_view name() const override { return "syscall"; }
    std::string describe() const override {
        return "syscall (ioctl ENABLE/DISABLE + one read(2) of the group per bracket)";
    }

    bool begin_pass() override {
        last_ = os::GroupReading{};
        if (!group_.disable() || !group_.reset()) return false;
        return group_.read(last_);
    }

    GroupDelta bracket(Body body, std::uint64_t n) override {
        // The body runs even when ENABLE fails: a per-call case's after() releases the result
        // its timed() produced, so skipping the body would leave after() nothing to release.
        if (!group_.enable()) {
            body.run(body.ctx, n);
            return GroupDelta{};
        }
        {
            StopOnUnwind guard{group_};
            body.run(body.ctx, n);
            guard.armed = false;
        }
        const bool stopped = group_.disable();
        os::GroupReading now;
        group_.read(now);
        GroupDelta delta = delta_between(last_, now);
        if (now.ok) last_ = now;
        if (!stopped) delta.ok = false;
        return delta;
    }

  private:
    os::PerfGroup& group_;
    os::GroupReading last_;
};

}  // namespace

std::unique_ptr<ReadPath> make_syscall_path(os::PerfGroup& group) {
    return std::make_unique<SyscallPath>(group);
}

}  // namespace glint::engine::counting
