// The Linux sampler: one perf_event_open(2) sampling event on the calling thread and its ring
// buffer (1 control page + 2^n data pages, mapped read-write so the kernel honours data_tail
// and never overwrites unread records). Every system call goes through sys() (os/linux/sys.hpp).
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "os/linux/perf_ring.hpp"
#include "os/linux/sys.hpp"
#include "os/sampling.hpp"

namespace glint::os {
namespace {

using linux_::sys;

struct Code {
    std::uint32_t type;
    std::uint64_t config;
};

Code code_of(SampleEvent event) {
    switch (event) {
        case SampleEvent::cycles:
            return {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES};
        case SampleEvent::instructions:
            return {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS};
        case SampleEvent::cpu_clock:
            return {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK};
        case SampleEvent::task_clock:
            return {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK};
    }
    return {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK};
}

bool power_of_two(std::size_t n) { return n != 0 && (n & (n - 1)) == 0; }

}  // namespace

Sampler::~Sampler() { close(); }

Sampler::Sampler(Sampler&& other) noexcept { *this = std::move(other); }

Sampler& Sampler::operator=(Sampler&& other) noexcept {
    if (this != &other) {
        close();
        spec_ = other.spec_;
        fd_ = std::exchange(other.fd_, -1);
        ring_ = std::exchange(other.ring_, nullptr);
        mapped_bytes_ = std::exchange(other.mapped_bytes_, 0);
        data_offset_ = other.data_offset_;
        data_size_ = other.data_size_;
        sample_type_ = other.sample_type_;
        counts_ = other.counts_;
    }
    return *this;
}

int Sampler::open(const SamplerSpec& spec) {
    close();
    if (!power_of_two(spec.data_pages) || (spec.period == 0 && spec.frequency == 0)) return EINVAL;
    const Code code = code_of(spec.event);
    perf_event_attr attr{};
    attr.size = sizeof attr;
    attr.type = code.type;
    attr.config = code.config;
    if (spec.period != 0) {
        attr.sample_period = spec.period;
    } else {
        attr.freq = 1;
        attr.sample_freq = spec.frequency;
    }
    sample_type_ = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD;
    if (spec.callchain) sample_type_ |= PERF_SAMPLE_CALLCHAIN;
    attr.sample_type = sample_type_;
    attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
    attr.disabled = 1;
    attr.exclude_hv = 1;
    attr.exclude_kernel = spec.exclude_kernel ? 1 : 0;
    attr.exclude_callchain_kernel = 1;  // the user stack is what is symbolized
    attr.precise_ip = spec.precise_ip & 3;
    int fd;
    do {
        fd = sys().perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) return errno;
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t bytes = (1 + spec.data_pages) * page;
    void* ring = sys().mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (ring == MAP_FAILED) {
        const int error = errno;
        sys().close(fd);
        return error;
    }
    const auto* control = static_cast<const perf_event_mmap_page*>(ring);
    // Kernels before 4.1 leave data_offset/data_size 0: the data area follows the first page.
    data_offset_ = control->data_offset ? control->data_offset : page;
    data_size_ = control->data_size ? control->data_size : spec.data_pages * page;
    spec_ = spec;
    fd_ = fd;
    ring_ = ring;
    mapped_bytes_ = bytes;
    counts_ = SampleCounts{};
    return 0;
}

void Sampler::close() {
    if (ring_) sys().munmap(ring_, mapped_bytes_);
    if (fd_ >= 0) sys().close(fd_);
    ring_ = nullptr;
    fd_ = -1;
    mapped_bytes_ = 0;
}

// The toggles live in their own section and keep frame pointers (os/CMakeLists.txt), two
// frames deep above the system call, so every sample the sampler takes of its own toggling has
// an address of this section on its stack, even when the innermost (libc) frame has none.
#define GLINT_TOGGLE_CODE [[gnu::noinline, gnu::section("glint_sampler_toggle")]]

namespace {

GLINT_TOGGLE_CODE int toggle_ioctl(int fd, unsigned long request) {
    int rc;
    do {
        rc = linux_::sys().ioctl(fd, request, 0);
    } while (rc < 0 && errno == EINTR);
    asm volatile("" ::: "memory");  // no tail call: this frame stays on the stack
    return rc;
}

}  // namespace

GLINT_TOGGLE_CODE bool Sampler::enable() {
    const bool ok = toggle_ioctl(fd_, PERF_EVENT_IOC_ENABLE) == 0;
    asm volatile("" ::: "memory");
    return ok;
}

GLINT_TOGGLE_CODE bool Sampler::disable() {
    const bool ok = toggle_ioctl(fd_, PERF_EVENT_IOC_DISABLE) == 0;
    asm volatile("" ::: "memory");
    return ok;
}

extern "C" const char __start_glint_sampler_toggle[];  // NOLINT: the linker defines both
extern "C" const char __stop_glint_sampler_toggle[];

CodeRange Sampler::toggle_code() {
    return {reinterpret_cast<std::uint64_t>(__start_glint_sampler_toggle),
            reinterpret_cast<std::uint64_t>(__stop_glint_sampler_toggle)};
}

std::size_t Sampler::pending_bytes() const {
    if (!ring_) return 0;
    auto* control = static_cast<perf_event_mmap_page*>(ring_);
    const std::uint64_t head = __atomic_load_n(&control->data_head, __ATOMIC_ACQUIRE);
    return static_cast<std::size_t>(head - control->data_tail);
}

void Sampler::drain(const SampleSink& sink) {
    if (!ring_) return;
    auto* control = static_cast<perf_event_mmap_page*>(ring_);
    // data_head with acquire ordering (the kernel's records are visible once it is), and
    // data_tail stored with release after the records were read: the kernel's protocol.
    const std::uint64_t head = __atomic_load_n(&control->data_head, __ATOMIC_ACQUIRE);
    const std::uint64_t tail = control->data_tail;
    const auto* data = static_cast<const unsigned char*>(ring_) + data_offset_;
    const std::uint64_t done =
        linux_::parse_ring(data, data_size_, tail, head, sample_type_, counts_, sink, scratch_);
    __atomic_store_n(&control->data_tail, done, __ATOMIC_RELEASE);
}

bool Sampler::times(SamplerTimes& out) const {
    std::uint64_t values[3] = {};  // { value, time_enabled, time_running }
    if (linux_::read_retry(fd_, values, sizeof values) != static_cast<ssize_t>(sizeof values))
        return false;
    out = SamplerTimes{values[0], values[1], values[2]};
    return true;
}

}  // namespace glint::os
