#include "support/emulated_pmu.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <time.h>

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

#include "arch/arch.hpp"
#include "os/linux/mmap_page.hpp"

namespace glint::test {
namespace {

std::atomic<EmulatedPmu*> g_pmu{nullptr};
struct sigaction g_previous_segv {};

[[noreturn]] void rig_error(const char* what) {
    std::fprintf(stderr, "emulated PMU: %s\n", what);
    std::abort();
}

// Page writes through volatile: the reading thread may be interrupted anywhere.
template <class T, class V>
void store(T& field, V value) {
    *static_cast<volatile T*>(&field) = static_cast<T>(value);
}

void bump_lock(perf_event_mmap_page* page) {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    store(page->lock, page->lock + 1);
    std::atomic_signal_fence(std::memory_order_seq_cst);
}

void on_segv(int sig, siginfo_t* info, void* context) {
    auto* uc = static_cast<ucontext_t*>(context);
    greg_t* regs = uc->uc_mcontext.gregs;
    const auto* rip = reinterpret_cast<const std::uint8_t*>(regs[REG_RIP]);
    EmulatedPmu* pmu = g_pmu.load(std::memory_order_relaxed);
    if (pmu != nullptr && rip[0] == 0x0F && rip[1] == 0x33) {
        const pid_t reader = EmulatedPmu::this_thread();
        const std::uint64_t value =
            pmu->emulate_rdpmc(static_cast<std::uint32_t>(regs[REG_RCX]), reader);
        regs[REG_RAX] = static_cast<greg_t>(value & 0xffffffffu);
        regs[REG_RDX] = static_cast<greg_t>(value >> 32);
        regs[REG_RIP] += 2;
        pmu->after_rdpmc(reader);
        return;
    }
    if (pmu != nullptr && pmu->emulate_timestamp(context, false)) return;  // fault_timestamps
    // Not ours: hand it to whoever was there before (doctest's crash report, or the default).
    if ((g_previous_segv.sa_flags & SA_SIGINFO) && g_previous_segv.sa_sigaction != nullptr) {
        g_previous_segv.sa_sigaction(sig, info, context);
        return;
    }
    signal(SIGSEGV, SIG_DFL);  // the faulting instruction re-executes and kills the process
}

struct sigaction g_previous_ill {};

// rdtscp where the CPU has none; anything else goes to the previous handler.
void on_ill(int sig, siginfo_t* info, void* context) {
    EmulatedPmu* pmu = g_pmu.load(std::memory_order_relaxed);
    if (pmu != nullptr && pmu->emulate_timestamp(context, true)) return;
    if ((g_previous_ill.sa_flags & SA_SIGINFO) && g_previous_ill.sa_sigaction != nullptr) {
        g_previous_ill.sa_sigaction(sig, info, context);
        return;
    }
    signal(SIGILL, SIG_DFL);
}

[[gnu::noinline]] std::uint64_t probe_rdpmc() {
    std::uint32_t lo, hi;
    asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(0));
    return (std::uint64_t{hi} << 32) | lo;
}

}  // namespace

EmulatedPmu::EmulatedPmu(unsigned width) : width_(width) {
    if (width_ < 1 || width_ > 64) rig_error("width outside 1..64");
    EmulatedPmu* expected = nullptr;
    if (!g_pmu.compare_exchange_strong(expected, this)) rig_error("one EmulatedPmu at a time");
    struct sigaction sa {};
    sa.sa_sigaction = &on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR2);  // an emulated rdpmc is atomic w.r.t. the async kernel
    if (sigaction(SIGSEGV, &sa, &g_previous_segv) != 0) rig_error("sigaction(SIGSEGV)");
    sa.sa_sigaction = &on_ill;
    if (sigaction(SIGILL, &sa, &g_previous_ill) != 0) rig_error("sigaction(SIGILL)");
    probe_rdpmc();
    intercepts_ = traps() == 1;
    traps_.store(0, std::memory_order_relaxed);
    for (ThreadTraps& t : thread_traps_) t.traps.store(0, std::memory_order_relaxed);
    bad_reads_ = 0;
}

// Cached per thread (static TLS in the test executable: safe in a handler), so that a trap
// makes no system call beyond its rt_sigreturn once the thread has asked once.
pid_t EmulatedPmu::this_thread() {
    thread_local pid_t tid = 0;
    if (tid == 0) tid = static_cast<pid_t>(syscall(SYS_gettid));
    return tid;
}

EmulatedPmu::~EmulatedPmu() {
    sigaction(SIGILL, &g_previous_ill, nullptr);
    sigaction(SIGSEGV, &g_previous_segv, nullptr);
    g_pmu.store(nullptr);
    for (int e = 0; e < events(); ++e) munmap(pages_[e], 4096);
}

std::uint64_t EmulatedPmu::mask() const {
    return width_ >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width_) - 1;
}

int EmulatedPmu::add_event(std::uint32_t counter, std::uint64_t raw_start, pid_t owner) {
    const std::lock_guard<std::mutex> adding(adding_);
    const int e = events_.load(std::memory_order_relaxed);
    if (e == kMaxEvents) rig_error("too many events");
    void* p = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) rig_error("mmap");
    owner_[e].store(owner != 0 ? owner : this_thread(), std::memory_order_relaxed);
    pages_[e] = static_cast<perf_event_mmap_page*>(p);
    pages_[e]->version = 0;
    pages_[e]->cap_bit0_is_deprecated = 1;
    pages_[e]->cap_user_rdpmc = 1;
    pages_[e]->pmc_width = static_cast<std::uint16_t>(width_);
    set_counter(e, true, counter, raw_start);
    events_.store(e + 1, std::memory_order_release);  // the handlers may see it now
    return e;
}

void EmulatedPmu::set_counter(int event, bool on_counter, std::uint32_t counter,
                              std::uint64_t raw_start) {
    perf_event_mmap_page* page = pages_[event];
    bump_lock(page);
    on_counter_[event] = on_counter;
    counter_of_[event] = counter;
    // The hardware counter reads (T - base) mod 2^width: raw_start now.
    base_[event] = count(event) - os::linux_::sign_extend(raw_start & mask(), width_);
    store(page->offset, base_[event]);
    store(page->index, on_counter ? counter + 1 : 0u);
    store(page->time_enabled, enabled_ns_[event]);
    store(page->time_running, running_ns_[event]);
    bump_lock(page);
}

void EmulatedPmu::advance_time(std::int64_t ns) {
    for (int e = 0; e < events(); ++e) {
        enabled_ns_[e] += ns;
        if (on_counter_[e]) running_ns_[e] += ns;
    }
}

void EmulatedPmu::advance(int event, std::int64_t n) {
    truth_[event].fetch_add(n, std::memory_order_relaxed);
}

void EmulatedPmu::advance_all(std::int64_t n) {
    const pid_t me = this_thread();
    for (int e = 0; e < events(); ++e)
        if (owner(e) == me) advance(e, n);
}

void EmulatedPmu::reprogram(int event, std::uint64_t raw_start) {
    set_counter(event, on_counter_[event], counter_of_[event], raw_start);
}

void EmulatedPmu::move(int event, std::uint32_t counter, std::uint64_t raw_start) {
    set_counter(event, true, counter, raw_start);
}

void EmulatedPmu::deschedule(int event) {
    // The kernel folds the hardware count into offset when it takes an event off a counter.
    set_counter(event, false, counter_of_[event], 0);
}

void EmulatedPmu::set_user_rdpmc(int event, bool granted) {
    perf_event_mmap_page* page = pages_[event];
    bump_lock(page);
    std::uint64_t caps = page->capabilities;
    caps = granted ? (caps | (1u << 2)) : (caps & ~std::uint64_t{1u << 2});
    store(page->capabilities, caps);
    bump_lock(page);
}

void EmulatedPmu::reset(int event) {
    const std::uint64_t raw = static_cast<std::uint64_t>(count(event) - base_[event]) & mask();
    truth_[event].store(0, std::memory_order_relaxed);
    set_counter(event, on_counter_[event], counter_of_[event], raw);
}

void EmulatedPmu::add_action(std::uint64_t at, When when, Action action, void* arg) {
    if (action_count_ == kMaxActions) rig_error("too many trap actions");
    actions_[action_count_++] = {at, when, action, arg};
}

void EmulatedPmu::at_trap(std::uint64_t trap, Action action, void* arg) {
    add_action(trap, When::after_latch, action, arg);
}

void EmulatedPmu::before_rdpmc(std::uint64_t trap, Action action, void* arg) {
    add_action(trap, When::before_latch, action, arg);
}

void EmulatedPmu::at_step(std::uint64_t step, Action action, void* arg) {
    add_action(step, When::after_step, action, arg);
}

void EmulatedPmu::run_actions(std::uint64_t at, When when) {
    for (int i = 0; i < action_count_; ++i) {
        const PendingAction& a = actions_[i];
        if (a.when == when && (a.at == at || (a.at == 0 && when != When::after_step)))
            a.action(*this, a.arg);
    }
}

void EmulatedPmu::after_step() {
    ++steps;
    if (instruction_event_ >= 0) advance(instruction_event_, 1);
    run_actions(steps, When::after_step);
}

// The reader's own events only: their fields change only on the reader's thread.
std::uint64_t EmulatedPmu::emulate_rdpmc(std::uint32_t ecx, pid_t reader) {
    run_actions(traps() + 1, When::before_latch);
    for (int e = 0; e < events(); ++e) {
        if (owner(e) == reader && on_counter_[e] && counter_of_[e] == ecx) {
            return static_cast<std::uint64_t>(count(e) - base_[e]) & mask();
        }
    }
    ++bad_reads_;
    return 0xa5a5a5a5a5a5a5a5ull & mask();
}

void EmulatedPmu::after_rdpmc(pid_t reader) {
    const std::uint64_t trap = traps_.fetch_add(1, std::memory_order_relaxed) + 1;
    count_trap(reader);
    if (stepping && instruction_event_ >= 0) advance(instruction_event_, 1);  // rdpmc retired
    for (int e = 0; e < events(); ++e) {
        if (owner(e) != reader) continue;
        const std::int64_t cost = read_cost_ + event_read_cost_[e];
        if (cost != 0) advance(e, cost);
    }
    run_actions(trap, When::after_latch);
}

bool EmulatedPmu::emulate_timestamp(void* context, bool read_tsc) {
    greg_t* regs = static_cast<ucontext_t*>(context)->uc_mcontext.gregs;
    const auto* rip = reinterpret_cast<const std::uint8_t*>(regs[REG_RIP]);
    if (rip == nullptr || rip[0] != 0x0F) return false;
    const bool rdtsc = rip[1] == 0x31;
    const bool rdtscp = rip[1] == 0x01 && rip[2] == 0xF9;
    if (!rdtsc && !rdtscp) return false;
    std::uint64_t value = 0;
    if (read_tsc) {
        std::uint32_t lo, hi;
        asm volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
        value = (std::uint64_t{hi} << 32) | lo;
    } else {  // a system call, not the vDSO: the vDSO reads the TSC, which is what faulted
        timespec now{};
        syscall(SYS_clock_gettime, CLOCK_MONOTONIC_RAW, &now);
        value = static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000u +
                static_cast<std::uint64_t>(now.tv_nsec);
    }
    regs[REG_RAX] = static_cast<greg_t>(value & 0xffffffffu);
    regs[REG_RDX] = static_cast<greg_t>(value >> 32);
    if (rdtscp) {
        unsigned cpu = 0, node = 0;
        syscall(SYS_getcpu, &cpu, &node, nullptr);
        regs[REG_RCX] = static_cast<greg_t>(((node & 0xfffu) << 12) | (cpu & 0xfffu));
    }
    regs[REG_RIP] += rdtscp ? 3 : 2;
    timestamp_emulations_.fetch_add(1, std::memory_order_relaxed);
    if (stepping && instruction_event_ >= 0) advance(instruction_event_, 1);  // it retired
    return true;
}

// Lock-free: the reader's slot, claimed on its first trap.
void EmulatedPmu::count_trap(pid_t reader) {
    for (ThreadTraps& t : thread_traps_) {
        pid_t seen = t.thread.load(std::memory_order_acquire);
        if (seen == 0 && t.thread.compare_exchange_strong(seen, reader)) seen = reader;
        if (seen == reader) {
            t.traps.fetch_add(1, std::memory_order_relaxed);
            return;
        }
    }
    rig_error("too many reading threads");
}

std::uint64_t EmulatedPmu::traps_on(pid_t thread) const {
    for (const ThreadTraps& t : thread_traps_)
        if (t.thread.load(std::memory_order_acquire) == thread)
            return t.traps.load(std::memory_order_relaxed);
    return 0;
}

arch::x86_64::StubLayout EmulatedPmu::layout(std::initializer_list<int> events) {
    arch::x86_64::StubLayout l;
    l.fields.lock = offsetof(perf_event_mmap_page, lock);
    l.fields.index = offsetof(perf_event_mmap_page, index);
    l.fields.offset = offsetof(perf_event_mmap_page, offset);
    l.fields.capabilities = offsetof(perf_event_mmap_page, capabilities);
    l.fields.user_read_bit = 2;  // cap_user_rdpmc
    std::size_t slot = 0;
    for (int e : events) {
        if (slot == arch::x86_64::kMaxStubCounters) rig_error("layout too large");
        l.counters.push_back({pages_[e], pages_[e]->index, width_});
        layout_events_[slot++] = e;
    }
    l.slow_read = &EmulatedPmu::slow_read;
    l.slow_context = this;
    return l;
}

std::int64_t EmulatedPmu::slow_read(void* self, std::uint32_t slot) {
    auto* pmu = static_cast<EmulatedPmu*>(self);
    const int e = pmu->layout_events_[slot];
    const os::linux_::PageReading r = os::linux_::read_page<arch::native, false>(pmu->pages_[e]);
    if (r.user_read) return r.count;
    ++pmu->fallback_reads_;
    return pmu->count(e);
}

// ---- single-stepping ----------------------------------------------------------------------------

namespace {

struct sigaction g_previous_trap {};

void on_trap(int sig, siginfo_t* info, void* context) {
    EmulatedPmu* pmu = g_pmu.load(std::memory_order_relaxed);
    if (pmu != nullptr && pmu->stepping && info->si_code == TRAP_TRACE) {
        pmu->after_step();
        return;  // EFLAGS.TF is still set in the saved context: stepping continues
    }
    if ((g_previous_trap.sa_flags & SA_SIGINFO) && g_previous_trap.sa_sigaction != nullptr) {
        g_previous_trap.sa_sigaction(sig, info, context);
        return;
    }
    signal(SIGTRAP, SIG_DFL);
    raise(SIGTRAP);
}

// TF on/off through the flags image on the stack (clear of the red zone).
[[gnu::noinline]] void set_trap_flag() {
    asm volatile(
        "sub $128, %%rsp\n\tpushfq\n\torq $0x100, (%%rsp)\n\tpopfq\n\tlea 128(%%rsp), %%rsp" ::
            : "memory", "cc");
}
[[gnu::noinline]] void clear_trap_flag() {
    asm volatile(
        "sub $128, %%rsp\n\tpushfq\n\tandq $-257, (%%rsp)\n\tpopfq\n\tlea 128(%%rsp), %%rsp" ::
            : "memory", "cc");
}

}  // namespace

Stepping::Stepping(EmulatedPmu& pmu) : pmu_(pmu) {
    struct sigaction sa {};
    sa.sa_sigaction = &on_trap;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR2);
    if (sigaction(SIGTRAP, &sa, &g_previous_trap) != 0) rig_error("sigaction(SIGTRAP)");
    pmu_.stepping = true;
    pmu_.steps = 0;
    set_trap_flag();
}

Stepping::~Stepping() {
    clear_trap_flag();
    pmu_.stepping = false;
    sigaction(SIGTRAP, &g_previous_trap, nullptr);
}

// ---- timestamp faults ----------------------------------------------------------------------

bool fault_timestamps(bool on) {
    return prctl(PR_SET_TSC, on ? PR_TSC_SIGSEGV : PR_TSC_ENABLE, 0, 0, 0) == 0;
}

// ---- the asynchronous kernel -------------------------------------------------------------------

namespace {

struct KernelState {
    EmulatedPmu* pmu = nullptr;
    AsyncKernel::Options options;
    std::uint64_t rng = 0;
    std::uint32_t spare = 0;
    std::atomic<std::uint64_t> updates{0};
};
KernelState g_kernel;
struct sigaction g_previous_usr2 {};

std::uint64_t next_random(std::uint64_t& s) {  // xorshift64
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
}

void on_usr2(int) {
    EmulatedPmu& pmu = *g_kernel.pmu;
    std::uint64_t& rng = g_kernel.rng;
    const int event = static_cast<int>(next_random(rng) % static_cast<std::uint64_t>(pmu.events()));
    // A raw start just below the wrap, like the kernel's negative period: counters cross 0.
    const std::uint64_t below = 1 + next_random(rng) % (std::uint64_t{1} << 20);
    const std::uint64_t raw = (pmu.width() >= 64 ? 0 : (std::uint64_t{1} << pmu.width())) - below;
    if (g_kernel.options.move_events && next_random(rng) % 4 == 0) {
        const std::uint32_t old = pmu.counter(event);
        pmu.move(event, g_kernel.spare, raw);
        g_kernel.spare = old;
    } else {
        pmu.reprogram(event, raw);
    }
    g_kernel.updates.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

AsyncKernel::AsyncKernel(EmulatedPmu& pmu, Options options) {
    g_kernel.pmu = &pmu;
    g_kernel.options = options;
    g_kernel.rng = options.seed == 0 ? 1 : options.seed;
    g_kernel.spare = options.spare_counter;
    g_kernel.updates = 0;
    struct sigaction sa {};
    sa.sa_handler = &on_usr2;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGUSR2, &sa, &g_previous_usr2) != 0) rig_error("sigaction(SIGUSR2)");
    const pid_t pid = getpid();
    const pid_t reader = static_cast<pid_t>(syscall(SYS_gettid));
    thread_ = std::thread([this, pid, reader, options] {
        std::uint64_t rng = options.seed ^ 0x5555;
        const unsigned span = options.max_gap_us - options.min_gap_us + 1;
        while (running_.load(std::memory_order_relaxed)) {
            const unsigned gap =
                options.min_gap_us + static_cast<unsigned>(next_random(rng) % span);
            std::this_thread::sleep_for(std::chrono::microseconds(gap));
            syscall(SYS_tgkill, pid, reader, SIGUSR2);
        }
    });
}

void AsyncKernel::stop() {
    if (!thread_.joinable()) return;
    running_ = false;
    thread_.join();  // signals sent before the join are delivered before join returns to us
    sigaction(SIGUSR2, &g_previous_usr2, nullptr);
}

AsyncKernel::~AsyncKernel() { stop(); }

std::uint64_t AsyncKernel::updates() const { return g_kernel.updates.load(); }

}  // namespace glint::test
