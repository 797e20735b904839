// The fake perf kernel's emulated-PMU model (support/fake_perf_kernel.hpp): events live on the
// emulated x86 PMU of support/emulated_pmu.hpp, their pages are its pages.
#include <cerrno>
#include <cmath>

#include "support/emulated_pmu.hpp"
#include "support/fake_perf_kernel.hpp"

namespace glint::test {
namespace {

constexpr std::uint64_t kWrap48 = std::uint64_t{1} << 48;

bool kind_of(const perf_event_attr& attr, os::Event& kind) {
    using E = os::Event;
    if (attr.type == PERF_TYPE_HARDWARE) {
        switch (attr.config) {
            case PERF_COUNT_HW_CPU_CYCLES:
                kind = E::cycles;
                return true;
            case PERF_COUNT_HW_INSTRUCTIONS:
                kind = E::instructions;
                return true;
            case PERF_COUNT_HW_BRANCH_INSTRUCTIONS:
                kind = E::branches;
                return true;
            case PERF_COUNT_HW_BRANCH_MISSES:
                kind = E::branch_misses;
                return true;
            case PERF_COUNT_HW_CACHE_REFERENCES:
                kind = E::cache_references;
                return true;
            case PERF_COUNT_HW_CACHE_MISSES:
                kind = E::cache_misses;
                return true;
            default:
                return false;
        }
    }
    if (attr.type == PERF_TYPE_SOFTWARE) {
        switch (attr.config) {
            case PERF_COUNT_SW_PAGE_FAULTS:
                kind = E::page_faults;
                return true;
            case PERF_COUNT_SW_TASK_CLOCK:
                kind = E::task_clock;
                return true;
            case PERF_COUNT_SW_CONTEXT_SWITCHES:
                kind = E::context_switches;
                return true;
            case PERF_COUNT_SW_CPU_MIGRATIONS:
                kind = E::cpu_migrations;
                return true;
            default:
                return false;
        }
    }
    return false;
}

// Page writes through volatile: the reading thread may be interrupted anywhere.
template <class T, class V>
void store(T& field, V value) {
    *static_cast<volatile T*>(&field) = static_cast<T>(value);
}

}  // namespace

class FakePerfKernel::PmuModel final : public FakePerfKernel::Model {
  public:
    PmuModel(FakePerfKernel& kernel, EmulatedPmu& pmu) : k_(kernel), pmu_(pmu) {}

    int open(Event& e) override {
        if (!kind_of(e.attr, e.kind)) return EINVAL;
        e.hardware = e.attr.type == PERF_TYPE_HARDWARE;
        if (e.hardware) {
            e.counter = next_counter_[e.owner]++;  // the thread's own context
            e.id = pmu_.add_event(e.counter, kWrap48 - 1000 - 37 * e.counter, e.owner);
            if (!k_.grant_rdpmc) pmu_.set_user_rdpmc(e.id, false);
        } else {
            e.id = pmu_.add_event(100 + static_cast<std::uint32_t>(pmu_.events()), 0, e.owner);
            pmu_.set_user_rdpmc(e.id, false);
        }
        if (const std::int64_t cost = k_.rdpmc_cost[static_cast<std::size_t>(e.kind)]; cost != 0)
            pmu_.set_read_cost(e.id, cost);
        pmu_.deschedule(e.id);  // opened disabled: not on a counter
        return 0;
    }

    void call() override { tick(k_.ns_per_call); }

    void close(const Event& e) override { pmu_.retire(e.id); }

    std::uint64_t traps_of(pid_t thread) const override { return pmu_.traps_on(thread); }

    void enable(Group& g) override {
        g.since = clock(g);
        for (int member : g.members) {
            const Event& e = k_.events_.at(member);
            if (e.hardware && e.kind != k_.never_scheduled)
                pmu_.move(e.id, e.counter, kWrap48 - 500 - 11 * e.counter);
        }
        if (k_.page_times) publish_times(g);
        charge(g, k_.syscall_cost, 1);
    }

    void disable(Group& g) override {
        charge(g, k_.syscall_cost, 1);
        g.time_enabled += clock(g) - g.since;
        for (int member : g.members)
            if (k_.events_.at(member).hardware) pmu_.deschedule(k_.events_.at(member).id);
    }

    void reset(Group& g) override {
        for (int member : g.members) pmu_.reset(k_.events_.at(member).id);
    }

    void work(std::uint64_t iterations) override {  // the calling thread's work
        const pid_t me = FakePerfKernel::caller();
        for (const auto& [leader, g] : k_.groups_)
            if (g.enabled && g.owner == me)
                charge(g, k_.per_iteration, static_cast<std::int64_t>(iterations));
        tick(iterations * k_.ns_per_iteration);
    }

    void read(const Group& g, std::vector<std::uint64_t>& data) override {
        data.push_back(enabled_ns(g));
        data.push_back(running_ns(g));
        for (int member : g.members)
            data.push_back(static_cast<std::uint64_t>(pmu_.count(k_.events_.at(member).id)));
    }

    void* page(const Event& e) override { return pmu_.page(e.id); }

    bool owns_page(const void* addr) const override {  // the rig owns its pages
        for (int e = 0; e < pmu_.events(); ++e)
            if (addr == pmu_.page(e)) return true;
        return false;
    }

  private:
    // The fake clock of the group's thread.
    std::uint64_t& clock(const Group& g) {
        return clocks_.try_emplace(g.owner, kClockStart).first->second;
    }
    std::uint64_t enabled_ns(const Group& g) {
        return g.time_enabled + (g.enabled ? clock(g) - g.since : 0);
    }
    std::uint64_t running_ns(const Group& g) {
        return static_cast<std::uint64_t>(
            std::llround(static_cast<double>(enabled_ns(g)) * k_.ratio(g.members.size())));
    }
    // The caller's clock moves: the pages of its enabled groups are republished (on its own
    // thread, as the kernel's update runs in the task's context).
    void tick(std::uint64_t ns) {
        const pid_t me = FakePerfKernel::caller();
        clocks_.try_emplace(me, kClockStart).first->second += ns;
        if (!k_.page_times) return;
        for (const auto& [leader, g] : k_.groups_)
            if (g.enabled && g.owner == me) publish_times(g);
    }
    void charge(const Group& g, const std::array<std::int64_t, 10>& per_kind, std::int64_t times) {
        for (int fd : g.members) {
            const Event& e = k_.events_.at(fd);
            const std::int64_t n = per_kind[static_cast<std::size_t>(e.kind)] * times;
            if (n != 0) pmu_.advance(e.id, n);
        }
    }
    void publish_times(const Group& g) {
        for (int fd : g.members) {
            const Event& e = k_.events_.at(fd);
            if (!e.hardware) continue;
            perf_event_mmap_page* page = pmu_.page(e.id);
            store(page->lock, page->lock + 1);
            store(page->capabilities,
                  page->capabilities | (std::uint64_t{1} << 3));  // cap_user_time
            store(page->time_mult, 0u);
            store(page->time_shift, 0u);
            store(page->time_offset, 0u);
            store(page->time_enabled, enabled_ns(g));
            store(page->time_running, running_ns(g));
            store(page->lock, page->lock + 1);
        }
    }

    static constexpr std::uint64_t kClockStart = 1'000'000;

    FakePerfKernel& k_;
    EmulatedPmu& pmu_;
    std::map<pid_t, std::uint32_t> next_counter_;  // by thread
    std::map<pid_t, std::uint64_t> clocks_;        // by thread
};

FakePerfKernel::FakePerfKernel(EmulatedPmu& pmu) : model_(std::make_unique<PmuModel>(*this, pmu)) {
    install();
}

}  // namespace glint::test
