#include "os/linux/perf_ring.hpp"

#include <linux/perf_event.h>

#include <cstring>

namespace glint::os::linux_ {
namespace {

constexpr std::uint64_t kSupported =
    PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;

// A record's bytes, contiguous (copied when it wrapped), read as u64 fields.
class Fields {
  public:
    Fields(const unsigned char* bytes, std::uint64_t size) : bytes_(bytes), size_(size) {}
    bool take(std::uint64_t& out) {
        if (at_ + 8 > size_) return false;
        std::memcpy(&out, bytes_ + at_, 8);
        at_ += 8;
        return true;
    }

  private:
    const unsigned char* bytes_;
    std::uint64_t size_;
    std::uint64_t at_ = sizeof(perf_event_header);
};

// The user part of a callchain: the entries after PERF_CONTEXT_USER (every entry is user when
// the chain carries no context marker at all).
bool read_callchain(Fields& f, SampleRecord& r) {
    std::uint64_t nr = 0;
    if (!f.take(nr)) return false;
    bool any_marker = false;
    bool user = false;
    for (std::uint64_t i = 0; i < nr; ++i) {
        std::uint64_t entry = 0;
        if (!f.take(entry)) return false;
        if (entry >= PERF_CONTEXT_MAX) {
            any_marker = true;
            user = entry == PERF_CONTEXT_USER;
            continue;
        }
        if (user || !any_marker) r.user_stack.push_back(entry);
    }
    return true;
}

bool parse_sample(Fields& f, std::uint16_t misc, std::uint64_t sample_type, SampleRecord& r) {
    r.ip = r.period = 0;
    r.pid = r.tid = 0;
    r.user_stack.clear();
    r.in_kernel = (misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
    if (sample_type & PERF_SAMPLE_IP && !f.take(r.ip)) return false;
    if (sample_type & PERF_SAMPLE_TID) {
        std::uint64_t pid_tid = 0;
        if (!f.take(pid_tid)) return false;
        // { u32 pid, tid }: the first in memory is pid.
        std::uint32_t both[2];
        std::memcpy(both, &pid_tid, 8);
        r.pid = both[0];
        r.tid = both[1];
    }
    if (sample_type & PERF_SAMPLE_PERIOD && !f.take(r.period)) return false;
    if (sample_type & PERF_SAMPLE_CALLCHAIN) return read_callchain(f, r);
    if (!r.in_kernel) r.user_stack.push_back(r.ip);  // no chain: the user ip alone
    return true;
}

}  // namespace

std::uint64_t supported_sample_type() { return kSupported; }

std::uint64_t parse_ring(const unsigned char* data, std::uint64_t size, std::uint64_t tail,
                         std::uint64_t head, std::uint64_t sample_type, SampleCounts& counts,
                         const SampleSink& sink, SampleRecord& scratch) {
    std::vector<unsigned char> wrapped;
    while (tail < head) {
        const std::uint64_t available = head - tail;
        const std::uint64_t at = tail & (size - 1);
        perf_event_header header{};
        if (available < sizeof header) {
            ++counts.malformed;
            return head;
        }
        // The header itself may straddle the end of the area.
        for (std::size_t i = 0; i < sizeof header; ++i)
            reinterpret_cast<unsigned char*>(&header)[i] = data[(at + i) & (size - 1)];
        if (header.size < sizeof header || header.size % 8 != 0 || header.size > available) {
            ++counts.malformed;
            return head;
        }
        const unsigned char* bytes = data + at;
        if (at + header.size > size) {  // wraps: copy it out contiguous
            wrapped.resize(header.size);
            const std::uint64_t first = size - at;
            std::memcpy(wrapped.data(), data + at, first);
            std::memcpy(wrapped.data() + first, data, header.size - first);
            bytes = wrapped.data();
        }
        Fields f(bytes, header.size);
        bool ok = true;
        switch (header.type) {
            case PERF_RECORD_SAMPLE:
                ok = parse_sample(f, header.misc, sample_type, scratch);
                if (ok) {
                    ++counts.samples;
                    if (sink) sink(scratch);
                }
                break;
            case PERF_RECORD_LOST: {  // { u64 id; u64 lost; }
                std::uint64_t id = 0, lost = 0;
                ok = f.take(id) && f.take(lost);
                if (ok) counts.lost += lost;
                break;
            }
            case PERF_RECORD_THROTTLE:
                ++counts.throttled;
                break;
            case PERF_RECORD_UNTHROTTLE:
                ++counts.unthrottled;
                break;
            default:
                ++counts.other;
                break;
        }
        if (!ok) {
            ++counts.malformed;
            return head;
        }
        tail += header.size;
    }
    return head;
}

}  // namespace glint::os::linux_
