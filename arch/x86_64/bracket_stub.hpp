// arch/x86_64/bracket_stub.hpp: JIT-emitted counting brackets (xbyak), one per group layout.
//
// A stub reads every counter of a layout and the TSC, runs the body (a call of `run(ctx, n)`,
// or instructions emitted inline and unrolled U times), reads everything again in reverse order
// and stores the deltas. Each read is the perf page seqlock with the open-time index and width
// baked in; when the page stops granting the read, or the lock stays torn for
// StubLayout::max_retries retries, StubLayout::slow_read must return the same quantity by other
// means. rdpmc runs only while the page grants it. Page field offsets come in through PageFields
// (arch/ knows no Linux).
// Rationale and details: docs/rationale.md, "arch/x86_64/bracket_stub.hpp".
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace Xbyak {
class CodeGenerator;
}

namespace glint::arch::x86_64 {

inline constexpr std::size_t kMaxStubCounters = 16;

// Byte offsets of the fields the fast path reads in a counter page, and the capability bit
// that grants a user read. Supplied by the OS layer (for perf_event_mmap_page: lock, index,
// offset, capabilities, cap_user_rdpmc = bit 2).
struct PageFields {
    std::int32_t lock = 0;           // u32 seqlock word
    std::int32_t index = 0;          // u32 hardware counter + 1; 0: not user-readable now
    std::int32_t offset = 0;         // s64 added to the sign-extended counter value
    std::int32_t capabilities = 0;   // u64 capability bits
    std::uint8_t user_read_bit = 0;  // bit number in capabilities
};

// One counter as known at open.
struct StubCounter {
    const void* page = nullptr;  // its mmap page, valid for the stub's lifetime
    std::uint32_t index = 0;     // page index at open (!= 0): the stub executes rdpmc(index - 1)
    unsigned width = 64;         // pmc_width at open, 1..64; 64 emits no sign extension
};

// Out-of-line read used when a guard fails: returns counter `slot`'s current count.
// Called with the stack aligned per the SysV ABI; may make system calls.
using SlowRead = std::int64_t (*)(void* context, std::uint32_t slot);

struct StubLayout {
    PageFields fields;
    std::vector<StubCounter> counters;  // read in this order before the body, reversed after
    SlowRead slow_read = nullptr;       // required when counters is not empty
    void* slow_context = nullptr;
    // Seqlock retries one bracket makes before it serves every further torn read with
    // slow_read (the OS layer's bound: os/linux/mmap_page.hpp, kMaxTornReads).
    std::uint32_t max_retries = 64;
};

// What one bracket stores. The stub writes every field it owns on every call.
struct BracketRecord {
    std::uint64_t tsc = 0;                       // TSC ticks from the start read to the end read
    std::int64_t counts[kMaxStubCounters] = {};  // per counter slot: end count - start count
    std::uint32_t retries = 0;     // seqlock retries (the page's lock changed during a read)
    std::uint32_t slow_reads = 0;  // reads served by slow_read (a guard failed, or torn_fallbacks)
    std::uint32_t torn_fallbacks = 0;  // of those, reads torn after max_retries retries
    std::int64_t start[kMaxStubCounters + 1] = {};  // stub-private: the start readings
};

// The body as one call of a compiled batch function: run(ctx, n).
struct CallBody {};

// The body as instructions emitted inline, `unroll` copies per loop trip; a stub call with
// n runs n trips (n * unroll copies). The emitted code may clobber rax, rcx, rdx, rsi, rdi,
// r8-r11 and flags, must preserve rbx, rbp, r12-r15 and rsp, and finds ctx in r14.
struct InlineBody {
    std::function<void(Xbyak::CodeGenerator&)> emit;
    std::uint32_t unroll = 1;
};

enum class Serialization {
    rdtscp,        // start: lfence .. reads .. rdtsc, lfence; end: rdtscp, lfence .. reads
    lfence_rdtsc,  // the same with lfence + rdtsc at the end (CPUs without rdtscp)
};
const char* to_string(Serialization s);

// Byte offsets into the emitted code (for tests and listings).
struct StubMarks {
    std::size_t bracket_begin = 0;  // the first instruction of the start reads
    std::size_t body_begin = 0;     // the first instruction of the body
    std::size_t body_end = 0;       // the first instruction after the body
    std::size_t bracket_end = 0;    // the first instruction after the end reads
};

class BracketStub {
  public:
    using Run = void (*)(void* ctx, std::uint64_t n);
    using Fn = void (*)(Run run, void* ctx, std::uint64_t n, BracketRecord* out);

    ~BracketStub();
    BracketStub(const BracketStub&) = delete;
    BracketStub& operator=(const BracketStub&) = delete;

    // One bracket: start reads, the body over n (run(ctx, n), or n trips of the inline body),
    // end reads; the deltas land in *out. `run` is ignored by inline stubs.
    void operator()(Run run, void* ctx, std::uint64_t n, BracketRecord* out) const {
        fn_(run, ctx, n, out);
    }

    const std::uint8_t* code() const { return code_; }
    std::size_t size() const { return size_; }
    const StubMarks& marks() const { return marks_; }
    std::size_t counters() const { return counters_; }
    std::uint32_t unroll() const { return unroll_; }  // 1 for call stubs
    Serialization serialization() const { return serialization_; }

  private:
    friend class StubEmitter;
    BracketStub() = default;
    std::unique_ptr<Xbyak::CodeGenerator> gen_;
    Fn fn_ = nullptr;
    const std::uint8_t* code_ = nullptr;
    std::size_t size_ = 0;
    StubMarks marks_;
    std::size_t counters_ = 0;
    std::uint32_t unroll_ = 1;
    Serialization serialization_ = Serialization::rdtscp;
};

// The emitter's outcome: a stub, or why none (executable memory refused, ...).
struct EmitResult {
    std::unique_ptr<BracketStub> stub;
    std::string error;
};

// Emits a stub for `layout`. Layout errors (too many counters, index 0, width outside 1..64,
// no slow_read) are programmer errors and abort with a message.
// `serialization` defaults to native_serialization(); the other choice is for tests.
EmitResult emit_bracket_stub(const StubLayout& layout, const CallBody& body);
EmitResult emit_bracket_stub(const StubLayout& layout, const CallBody& body, Serialization s);
EmitResult emit_bracket_stub(const StubLayout& layout, const InlineBody& body);
EmitResult emit_bracket_stub(const StubLayout& layout, const InlineBody& body, Serialization s);

// The serialization used on this CPU: rdtscp when CPUID reports it, else lfence_rdtsc.
Serialization native_serialization();

}  // namespace glint::arch::x86_64
