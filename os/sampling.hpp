// os/sampling.hpp: overflow sampling of the calling thread, the OS-neutral surface.
//
// A Sampler opens one sampling event (disabled) with a ring buffer; each record holds the
// instruction pointer, the thread and, with `callchain`, the user call stack. drain() hands
// each sample parsed since the last drain to a sink; lost records, throttling and unparseable
// records are counted, never hidden. Off Linux open() fails with ENOSYS.
// Rationale and details: docs/rationale.md, "os/sampling.hpp".
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace glint::os {

// What drives the samples: a hardware event's overflow interrupt (cycles, instructions: a PMU
// is needed), or a software timer (cpu-clock, task-clock: everywhere perf_event exists).
enum class SampleEvent : std::uint8_t { cycles, instructions, cpu_clock, task_clock };

constexpr std::string_view sample_event_name(SampleEvent event) {
    switch (event) {
        case SampleEvent::cycles:
            return "cycles";
        case SampleEvent::instructions:
            return "instructions";
        case SampleEvent::cpu_clock:
            return "cpu-clock";
        case SampleEvent::task_clock:
            return "task-clock";
    }
    return "?";
}

// Timer events count nanoseconds: their period is a time.
constexpr bool is_timer(SampleEvent event) {
    return event == SampleEvent::cpu_clock || event == SampleEvent::task_clock;
}

struct SamplerSpec {
    SampleEvent event = SampleEvent::cpu_clock;
    std::uint64_t period = 0;     // events per sample (timers: nanoseconds); 0: use frequency
    std::uint64_t frequency = 0;  // samples per second, when period is 0
    bool callchain = true;        // the user call stack (frame-pointer walk), kernel part excluded
    bool exclude_kernel = false;  // sample user mode only (paranoid kernels require it)
    std::uint8_t precise_ip = 0;  // 0..3: the skid constraint (hardware events only)
    std::size_t data_pages = 64;  // pages of the ring's data area: a power of 2
};

// One PERF_RECORD_SAMPLE, as parsed.
struct SampleRecord {
    std::uint64_t ip = 0;
    std::uint64_t period = 0;  // events (timers: ns) this sample stands for
    std::uint32_t pid = 0;
    std::uint32_t tid = 0;
    bool in_kernel = false;  // the sampled ip is in the kernel (a system call, a fault)
    // The user-mode frames, innermost first: the user ip (for a kernel sample, where user mode
    // was left), then return addresses. Empty when the kernel recorded no user part.
    std::vector<std::uint64_t> user_stack;
};

struct SampleCounts {
    std::uint64_t samples = 0;      // PERF_RECORD_SAMPLE records parsed
    std::uint64_t lost = 0;         // samples dropped because the ring was full (PERF_RECORD_LOST)
    std::uint64_t throttled = 0;    // PERF_RECORD_THROTTLE: the kernel stopped sampling for a while
    std::uint64_t unthrottled = 0;  // PERF_RECORD_UNTHROTTLE
    std::uint64_t other = 0;        // records of other types, skipped
    std::uint64_t malformed = 0;    // drains that met an unparseable record (the rest dropped)
};

using SampleSink = std::function<void(const SampleRecord&)>;

// The event's accumulated times since the open (perf's time_enabled / time_running).
struct SamplerTimes {
    std::uint64_t count = 0;  // the event's count (timers: ns on CPU while enabled)
    std::uint64_t enabled_ns = 0;
    std::uint64_t running_ns = 0;  // time the event was enabled and on the PMU
};

// A half-open range of code addresses.
struct CodeRange {
    std::uint64_t begin = 0, end = 0;
    bool contains(std::uint64_t a) const { return a >= begin && a < end; }
};

class Sampler {
  public:
    Sampler() = default;
    ~Sampler();
    Sampler(Sampler&& other) noexcept;
    Sampler& operator=(Sampler&& other) noexcept;
    Sampler(const Sampler&) = delete;
    Sampler& operator=(const Sampler&) = delete;

    // Opens `spec` on this thread (pid 0, any CPU), disabled, and maps its ring. Returns 0 or
    // the errno of the step that failed (then nothing stays open).
    int open(const SamplerSpec& spec);
    void close();  // idempotent
    bool is_open() const { return fd_ >= 0; }
    const SamplerSpec& spec() const { return spec_; }

    bool enable();  // false with errno set on failure
    bool disable();
    // The code of enable() and disable() (empty where there is none): a sample of the toggling
    // itself has an address in it at its innermost or second frame, given the frames the
    // kernel's frame-pointer walk records (the system call's libc wrapper keeps none).
    static CodeRange toggle_code();

    // Parses every record the kernel wrote since the last drain, hands the samples to `sink`
    // in order, and gives the space back to the kernel.
    void drain(const SampleSink& sink);
    // Bytes written and not yet drained (drain before the ring fills to avoid losing samples).
    std::size_t pending_bytes() const;
    std::size_t ring_bytes() const { return data_size_; }

    const SampleCounts& counts() const { return counts_; }
    bool times(SamplerTimes& out) const;

  private:
    SamplerSpec spec_;
    int fd_ = -1;
    void* ring_ = nullptr;  // the control page followed by the data area
    std::size_t mapped_bytes_ = 0;
    std::size_t data_offset_ = 0;
    std::size_t data_size_ = 0;
    std::uint64_t sample_type_ = 0;
    SampleCounts counts_;
    SampleRecord scratch_;
};

}  // namespace glint::os
