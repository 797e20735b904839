// tests/support/emulated_pmu.hpp: an emulated x86 PMU behind fake perf mmap pages.
//
// Where the kernel has not granted user rdpmc (every VM here), the genuine rdpmc instruction
// (0F 33) raises SIGSEGV. EmulatedPmu installs a handler that emulates it from simulated
// counters (EDX:EAX from the counter ECX selects, RIP += 2), so the real JIT stubs and the
// real os::linux_::read_page run unmodified against fake perf_event_mmap_page pages.
//
// The model, per event: a true count T (what read(2) would return) advanced only by the test
// (advance) and by a fixed cost per emulated rdpmc (set_read_cost: the apparatus); a hardware
// counter of pmc_width bits holding (T - base) mod 2^width, where base is the page's offset
// since the event was last programmed; and the perf clock's time_enabled and time_running,
// advanced by the test (advance_time: running only while the event sits on a counter).
// "Kernel" updates (reprogram, move, deschedule, grant) bump the page's lock around their
// writes and publish index, offset, time_enabled and time_running, as perf_event_update_userpage
// does; between updates the page's times stay as published (time_enabled - time_running is then
// current while the event is on a counter: both advance together). Like the kernel, updates must
// run while the reading thread is interrupted: from test code between brackets, from a trap
// action (at_trap: right after an emulated rdpmc latched its value; before_rdpmc: before it
// does; at_step: after a single-stepped instruction), or from AsyncKernel's signal handler. A
// counter that no event occupies reads as garbage.
//
// Threads, as the kernel has them: every event belongs to one thread (its owner: the thread that
// added it, or the tid add_event names), and the hardware counters are per thread context: two
// threads may each have an event on counter 0. An rdpmc executed by thread T reads T's event on
// that counter (another thread's reads as garbage), and its read costs advance T's events only;
// advance_all is the calling thread's work. Traps are counted in all and per thread
// (traps_on). The handler takes no lock: it finds the reader (this_thread) among the events
// published so far (add_event publishes each whole) and touches only the reader's events, which
// only the reader changes (the kernel updates above run on the owning thread). A thread must not
// change another's events while that one reads. Stepping, trap actions and AsyncKernel still
// follow one thread. One EmulatedPmu at a time. A trap costs about 1.5 us: keep iteration
// counts modest. Each trap returns through rt_sigreturn, itself a system call.
//
// Timestamp reads are emulated where they fault, so a stub of either serialization runs on any
// host: rdtscp on a CPU without it (SIGILL: the value is the TSC, read by the handler), rdtsc
// and rdtscp made to fault by fault_timestamps (SIGSEGV, which the rig's tests use to run the
// emulation on a host that has rdtscp: the value is then CLOCK_MONOTONIC_RAW in ns, read by a
// system call, a counter that only grows). rdtscp's ECX is the CPU and node, as Linux sets TSC_AUX.
// Under Stepping the emulated instruction counts as retired, as a real one would.
#pragma once

#include <linux/perf_event.h>
#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <mutex>
#include <thread>

#include "arch/x86_64/bracket_stub.hpp"

namespace glint::test {

class EmulatedPmu {
  public:
    static constexpr int kMaxEvents = 128;  // ever added (closing a perf fd frees no slot)
    static constexpr int kMaxThreads = 64;  // threads whose traps are counted apart
    static constexpr int kMaxActions = 16;
    using Action = void (*)(EmulatedPmu& pmu, void* arg);

    // Installs the SIGSEGV handler. `width` is every counter's pmc_width.
    explicit EmulatedPmu(unsigned width = 48);
    ~EmulatedPmu();
    EmulatedPmu(const EmulatedPmu&) = delete;
    EmulatedPmu& operator=(const EmulatedPmu&) = delete;

    // False when rdpmc did not trap here (user rdpmc always granted, rdpmc=2): nothing can be
    // emulated and rig tests must not run.
    bool intercepts() const { return intercepts_; }

    // Adds an event of thread `owner` (0: the calling thread) on hardware counter `counter` (the
    // rdpmc ECX value, in the owner's context; the page index is counter + 1) whose hardware
    // counter starts at `raw_start`. Returns the event id. Safe from several threads at once.
    int add_event(std::uint32_t counter, std::uint64_t raw_start = 0, pid_t owner = 0);
    perf_event_mmap_page* page(int event) const { return pages_[event]; }
    int events() const { return events_.load(std::memory_order_acquire); }
    pid_t owner(int event) const { return owner_[event].load(std::memory_order_relaxed); }
    // The event leaves every thread (its perf fd closed): no rdpmc reads it any more.
    void retire(int event) { owner_[event].store(0, std::memory_order_relaxed); }
    // The calling thread's id (gettid, cached per thread; async-signal-safe).
    static pid_t this_thread();
    std::uint32_t counter(int event) const { return counter_of_[event]; }
    unsigned width() const { return width_; }

    // Simulated work: the event counts n more; advance_all: every event of the calling thread.
    void advance(int event, std::int64_t n);
    void advance_all(std::int64_t n);
    // Every emulated rdpmc advances every event of the reading thread by `per_read` after its
    // value is latched.
    void set_read_cost(std::int64_t per_read) { read_cost_ = per_read; }
    // Likewise for one event only, when its owner reads (added to the cost above).
    void set_read_cost(int event, std::int64_t per_read) { event_read_cost_[event] = per_read; }
    // The count read(2) would return now.
    std::int64_t count(int event) const { return truth_[event].load(std::memory_order_relaxed); }
    // Perf-clock time: every event's time_enabled advances by ns, its time_running too while
    // it sits on a counter. Not published to the pages (the next kernel update does that).
    void advance_time(std::int64_t ns);
    // time_enabled - time_running now, as read(2) would give them.
    std::int64_t descheduled_ns(int event) const { return enabled_ns_[event] - running_ns_[event]; }

    // ---- "kernel" updates (lock bumped around them) ----
    void reprogram(int event, std::uint64_t raw_start);                    // same counter
    void move(int event, std::uint32_t counter, std::uint64_t raw_start);  // another counter
    void deschedule(int event);                    // index 0: no user read now
    void set_user_rdpmc(int event, bool granted);  // the cap_user_rdpmc bit
    void reset(int event);  // PERF_EVENT_IOC_RESET: the count restarts at 0, the counter runs on

    // Runs `action(*this, arg)` inside the handler of emulated rdpmc number `trap` (1-based,
    // counted since construction; 0: every one), after that rdpmc latched its value.
    void at_trap(std::uint64_t trap, Action action, void* arg = nullptr);
    // Likewise before that rdpmc latches its value (a kernel update between the reader's page
    // loads and its rdpmc).
    void before_rdpmc(std::uint64_t trap, Action action, void* arg = nullptr);
    // Runs `action` after single-stepped instruction number `step` (1-based, counted since the
    // Stepping scope began): a kernel update at any chosen instruction boundary.
    void at_step(std::uint64_t step, Action action, void* arg = nullptr);
    void clear_actions() { action_count_ = 0; }

    // Makes `event` an exact user-mode "instructions retired" counter: while a Stepping scope
    // is active, every instruction the thread retires advances it by one (single-step traps;
    // an emulated rdpmc counts itself once it "retires", after its value is latched).
    void count_user_instructions(int event) { instruction_event_ = event; }
    int instruction_event() const { return instruction_event_; }

    std::uint64_t traps() const { return traps_.load(std::memory_order_relaxed); }
    std::uint64_t traps_on(pid_t thread) const;  // emulated rdpmc executed by that thread
    // slow_read via "read(2)"
    std::uint64_t fallback_reads() const { return fallback_reads_.load(); }
    // rdpmc of a counter no event of the reading thread holds
    std::uint64_t bad_reads() const { return bad_reads_.load(); }
    // rdtsc and rdtscp emulated (they faulted)
    std::uint64_t timestamp_emulations() const { return timestamp_emulations_.load(); }

    // Emulates the timestamp read at the rip of `context` (the ucontext_t of a fault): rdtsc
    // (0F 31) or rdtscp (0F 01 F9), rip past it; the value is the TSC (`read_tsc`: the handler
    // executes rdtsc) or CLOCK_MONOTONIC_RAW ns. False, nothing changed, for any other code.
    bool emulate_timestamp(void* context, bool read_tsc);

    // A stub layout over `events` (layout slot i = events[i]) with their current indices,
    // the rig's width and slow_read below.
    arch::x86_64::StubLayout layout(std::initializer_list<int> events);
    // slow_read for layouts made by layout(): the generic protocol (os::linux_::read_page) on
    // the event's page, or, when the page does not grant a user read, the count read(2) would
    // return (counted in fallback_reads()).
    static std::int64_t slow_read(void* self, std::uint32_t slot);

    // Called by the signal handlers; not for tests.
    std::uint64_t emulate_rdpmc(std::uint32_t ecx, pid_t reader);
    void after_rdpmc(pid_t reader);
    void after_step();
    bool stepping = false;    // set by Stepping
    std::uint64_t steps = 0;  // instructions single-stepped since the Stepping scope began

  private:
    void set_counter(int event, bool on_counter, std::uint32_t counter, std::uint64_t raw_start);
    std::uint64_t mask() const;

    void count_trap(pid_t reader);

    unsigned width_;
    bool intercepts_ = false;
    std::mutex adding_;           // add_event only; never taken by a handler
    std::atomic<int> events_{0};  // published: every slot below is whole
    std::atomic<pid_t> owner_[kMaxEvents] = {};
    perf_event_mmap_page* pages_[kMaxEvents] = {};
    std::atomic<std::int64_t> truth_[kMaxEvents] = {};
    std::int64_t enabled_ns_[kMaxEvents] = {};
    std::int64_t running_ns_[kMaxEvents] = {};
    std::int64_t base_[kMaxEvents] = {};  // hardware counter = (T - base) mod 2^width
    std::uint32_t counter_of_[kMaxEvents] = {};
    bool on_counter_[kMaxEvents] = {};
    int layout_events_[arch::x86_64::kMaxStubCounters] = {};
    int instruction_event_ = -1;
    std::int64_t read_cost_ = 0;
    std::int64_t event_read_cost_[kMaxEvents] = {};
    std::atomic<std::uint64_t> traps_{0};
    struct ThreadTraps {
        std::atomic<pid_t> thread{0};  // claimed once, lock-free
        std::atomic<std::uint64_t> traps{0};
    } thread_traps_[kMaxThreads];
    std::atomic<std::uint64_t> fallback_reads_{0};
    std::atomic<std::uint64_t> bad_reads_{0};
    std::atomic<std::uint64_t> timestamp_emulations_{0};
    enum class When : std::uint8_t { after_latch, before_latch, after_step };
    struct PendingAction {
        std::uint64_t at;  // trap or step number; 0: every trap
        When when;
        Action action;
        void* arg;
    } actions_[kMaxActions] = {};
    void add_action(std::uint64_t at, When when, Action action, void* arg);
    void run_actions(std::uint64_t at, When when);
    int action_count_ = 0;
};

// Single-steps the calling thread (EFLAGS.TF) for its lifetime; each retired instruction
// advances pmu's instruction event. About 1-2 us per instruction: keep the scope small.
class Stepping {
  public:
    explicit Stepping(EmulatedPmu& pmu);
    ~Stepping();
    Stepping(const Stepping&) = delete;
    Stepping& operator=(const Stepping&) = delete;

  private:
    EmulatedPmu& pmu_;
};

// Makes rdtsc and rdtscp fault on the calling thread (`on`: prctl PR_SET_TSC, PR_TSC_SIGSEGV)
// or read again (PR_TSC_ENABLE), so that an EmulatedPmu emulates them: the rig's emulation of
// timestamp reads runs on any host. False: the kernel refused (nothing changed). Only while an
// EmulatedPmu is installed, and briefly: every timestamp read of the thread traps meanwhile (the
// vDSO's clock reads included), and one with no EmulatedPmu installed kills the process.
bool fault_timestamps(bool on);

// An asynchronous "kernel": a thread that interrupts the constructing (reading) thread with
// SIGUSR2 at random moments; the handler, running on the reading thread like an interrupt,
// reprograms a random event with a random raw start just below the wrap (so that counters
// cross zero) and, when `spare_counter` is set, sometimes swaps an event onto it. Tests must
// not call the kernel updates themselves while it runs.
class AsyncKernel {
  public:
    struct Options {
        unsigned min_gap_us = 2;
        unsigned max_gap_us = 30;
        bool move_events = false;
        std::uint32_t spare_counter = 7;  // a counter no event holds at the start
        std::uint64_t seed = 0x9e3779b97f4a7c15ull;
    };
    AsyncKernel(EmulatedPmu& pmu, Options options);
    ~AsyncKernel();
    AsyncKernel(const AsyncKernel&) = delete;
    AsyncKernel& operator=(const AsyncKernel&) = delete;

    // Stops the thread and waits for it; updates() is final afterwards.
    void stop();
    std::uint64_t updates() const;

  private:
    std::thread thread_;
    std::atomic<bool> running_{true};
};

}  // namespace glint::test
