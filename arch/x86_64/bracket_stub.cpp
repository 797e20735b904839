// The xbyak emitter of bracket stubs (contract in bracket_stub.hpp). Emitted code, SysV ABI:
// fn(run = rdi, ctx = rsi, n = rdx, out = rcx) (Microsoft x64: rcx, rdx, r8, r9; rdi and rsi
// saved too; 32 bytes of shadow space around each call); callee-saved registers pushed, stack
// 16-aligned;
// lfence, start reads (counters 0..k-1, then rdtsc), lfence, body, rdtscp, lfence, end reads in
// reverse order, deltas stored in out. Each counter read is the page seqlock with the index and
// width baked in; retries and slow reads jump out of line.
// Rationale and details: docs/rationale.md, "arch/x86_64/bracket_stub.cpp".
#include "arch/x86_64/bracket_stub.hpp"

#include <xbyak/xbyak.h>
#include <xbyak/xbyak_util.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <list>
#include <memory>
#include <string>

#include "arch/arch.hpp"
#include "arch/x86_64/pmu.hpp"

namespace glint::arch::x86_64 {
namespace {

[[noreturn]] void layout_error(const char* what) {
    std::fprintf(stderr, "glint: bracket stub layout error: %s\n", what);
    std::abort();
}

void check_layout(const StubLayout& layout) {
    if (layout.counters.size() > kMaxStubCounters)
        layout_error("more than kMaxStubCounters counters");
    if (!layout.counters.empty() && layout.slow_read == nullptr) layout_error("no slow_read");
    for (const StubCounter& c : layout.counters) {
        if (c.page == nullptr) layout_error("counter without a page");
        if (c.index == 0) layout_error("counter with index 0 (read it with read(2) instead)");
        if (c.width < 1 || c.width > 64) layout_error("pmc width outside 1..64");
    }
    if (layout.fields.user_read_bit >= 64) layout_error("capability bit outside 0..63");
}

constexpr int kTsc = static_cast<int>(offsetof(BracketRecord, tsc));
constexpr int kRetries = static_cast<int>(offsetof(BracketRecord, retries));
constexpr int kSlowReads = static_cast<int>(offsetof(BracketRecord, slow_reads));
constexpr int kTornFallbacks = static_cast<int>(offsetof(BracketRecord, torn_fallbacks));
constexpr int counts_at(std::size_t slot) {
    return static_cast<int>(offsetof(BracketRecord, counts) + slot * sizeof(std::int64_t));
}
constexpr int start_at(std::size_t slot) {
    return static_cast<int>(offsetof(BracketRecord, start) + slot * sizeof(std::int64_t));
}

}  // namespace

const char* to_string(Serialization s) {
    switch (s) {
        case Serialization::rdtscp:
            return "start: lfence, counter reads, rdtsc, lfence; end: rdtscp, lfence, counter "
                   "reads";
        case Serialization::lfence_rdtsc:
            return "start: lfence, counter reads, rdtsc, lfence; end: lfence, rdtsc, lfence, "
                   "counter reads";
    }
    return "?";
}

Serialization native_serialization() {
    return kHasRdtscp ? Serialization::rdtscp : Serialization::lfence_rdtsc;
}

class StubEmitter : public Xbyak::CodeGenerator {
  public:
    StubEmitter(const StubLayout& layout, Serialization serialization)
        : Xbyak::CodeGenerator(4096, Xbyak::AutoGrow),
          layout_(&layout),
          serialization_(serialization) {}

    // Emits the whole stub; `inline_body` null: the body is a call of run(ctx, n).
    void emit_stub(const InlineBody* inline_body) {
        using namespace Xbyak::util;
        for (const auto& r : {rbx, rbp, r12, r13, r14, r15}) push(r);
        if (kWin64) {
            push(rdi);
            push(rsi);
        }
        sub(rsp, 8);
        mov(r13, kWin64 ? rcx : rdi);
        mov(r14, kWin64 ? rdx : rsi);
        mov(r12, kWin64 ? r8 : rdx);
        mov(rbx, kWin64 ? r9 : rcx);
        mov(dword[rbx + kRetries], 0);
        mov(dword[rbx + kSlowReads], 0);
        mov(dword[rbx + kTornFallbacks], 0);

        const std::size_t k = layout_->counters.size();
        marks_.bracket_begin = getSize();
        lfence();
        for (std::size_t i = 0; i < k; ++i) read_counter(i, start_at(i));
        rdtsc();
        combine_edx_eax();
        mov(qword[rbx + start_at(k)], rax);
        lfence();

        marks_.body_begin = getSize();
        if (inline_body != nullptr) {
            emit_inline_body(*inline_body);
        } else {
            mov(kWin64 ? rcx : rdi, r14);
            mov(kWin64 ? rdx : rsi, r12);
            emit_call(r13);
        }
        marks_.body_end = getSize();

        if (serialization_ == Serialization::rdtscp) {
            rdtscp();
        } else {
            lfence();
            rdtsc();
        }
        combine_edx_eax();
        mov(qword[rbx + kTsc], rax);
        lfence();
        for (std::size_t i = k; i-- > 0;) read_counter(i, counts_at(i));
        marks_.bracket_end = getSize();

        for (std::size_t i = 0; i < k; ++i) {
            mov(rax, qword[rbx + counts_at(i)]);
            sub(rax, qword[rbx + start_at(i)]);
            mov(qword[rbx + counts_at(i)], rax);
        }
        mov(rax, qword[rbx + kTsc]);
        sub(rax, qword[rbx + start_at(k)]);
        mov(qword[rbx + kTsc], rax);
        add(rsp, 8);
        if (kWin64) {
            pop(rsi);
            pop(rdi);
        }
        for (const auto& r : {r15, r14, r13, r12, rbp, rbx}) pop(r);
        ret();

        emit_out_of_line();
        ready(PROTECT_RE);
        layout_ = nullptr;
    }

    // Emits and wraps a stub; xbyak failures (no executable memory, ...) become an error.
    static EmitResult build(const StubLayout& layout, const InlineBody* inline_body,
                            Serialization s) {
        check_layout(layout);
        if (inline_body != nullptr && (!inline_body->emit || inline_body->unroll == 0)) {
            layout_error("inline body without an emitter or with unroll 0");
        }
        EmitResult result;
        try {
            auto gen = std::make_unique<StubEmitter>(layout, s);
            gen->emit_stub(inline_body);
            std::unique_ptr<BracketStub> stub(new BracketStub());
            stub->code_ = gen->getCode();
            stub->size_ = gen->getSize();
            stub->fn_ = gen->getCode<BracketStub::Fn>();
            stub->marks_ = gen->marks_;
            stub->counters_ = layout.counters.size();
            stub->unroll_ = inline_body != nullptr ? inline_body->unroll : 1;
            stub->serialization_ = s;
            stub->gen_ = std::move(gen);
            result.stub = std::move(stub);
        } catch (const std::exception& e) {
            result.error = std::string("could not emit the bracket stub: ") + e.what();
        }
        return result;
    }

  private:
    struct Pending {
        std::size_t slot = 0;
        Xbyak::Label retry, count_retry, torn, slow, resume;
    };

    void combine_edx_eax() {
        using namespace Xbyak::util;
        shl(rdx, 32);
        or_(rax, rdx);
    }

    void read_counter(std::size_t slot, int dest) {
        using namespace Xbyak::util;
        const StubCounter& c = layout_->counters[slot];
        const PageFields& f = layout_->fields;
        Pending& p = pending_.emplace_back();
        p.slot = slot;
        mov(r11, reinterpret_cast<std::uint64_t>(c.page));
        L(p.retry);
        mov(r10d, dword[r11 + f.lock]);
        test(byte[r11 + f.capabilities + f.user_read_bit / 8], 1u << (f.user_read_bit % 8));
        jz(p.slow, T_NEAR);
        cmp(dword[r11 + f.index], c.index);
        jne(p.slow, T_NEAR);
        mov(ecx, c.index - 1);
        rdpmc();
        combine_edx_eax();
        if (c.width < 64) {
            shl(rax, 64 - c.width);
            sar(rax, 64 - c.width);
        }
        add(rax, qword[r11 + f.offset]);
        cmp(r10d, dword[r11 + f.lock]);
        jne(p.count_retry, T_NEAR);
        L(p.resume);
        mov(qword[rbx + dest], rax);
    }

    // mov r15, n; jmp check; (alignment, never executed); loop: body x U;
    // check: sub r15, 1; jae loop.  n trips cost 4 + n * (U + 2) instructions, n = 0 included,
    // so an n = 0 calibration differs from an n-trip bracket by exactly n * (U + 2).
    void emit_inline_body(const InlineBody& body) {
        using namespace Xbyak::util;
        Xbyak::Label loop, check;
        mov(r15, r12);
        jmp(check, T_NEAR);
        align(32);
        L(loop);
        for (std::uint32_t u = 0; u < body.unroll; ++u) body.emit(*this);
        L(check);
        sub(r15, 1);
        jae(loop, T_NEAR);
    }

    void emit_out_of_line() {
        using namespace Xbyak::util;
        for (Pending& p : pending_) {
            L(p.count_retry);
            inc(dword[rbx + kRetries]);
            cmp(dword[rbx + kRetries], layout_->max_retries);
            jae(p.torn, T_NEAR);
            jmp(p.retry, T_NEAR);
            L(p.torn);
            inc(dword[rbx + kTornFallbacks]);
            L(p.slow);
            mov(kWin64 ? rcx : rdi, reinterpret_cast<std::uint64_t>(layout_->slow_context));
            mov(kWin64 ? edx : esi, static_cast<std::uint32_t>(p.slot));
            mov(rax, reinterpret_cast<std::uint64_t>(layout_->slow_read));
            emit_call(rax);
            inc(dword[rbx + kSlowReads]);
            jmp(p.resume, T_NEAR);
        }
    }

    // A call of `target` with the arguments in place: under the Microsoft x64 convention with
    // the callee's 32 bytes of shadow space reserved around it (the stack stays 16-aligned).
    void emit_call(const Xbyak::Reg64& target) {
        if (kWin64) sub(rsp, 32);
        call(target);
        if (kWin64) add(rsp, 32);
    }

    static constexpr bool kWin64 = kMicrosoftX64Abi;
    const StubLayout* layout_;
    Serialization serialization_;
    StubMarks marks_;
    std::list<Pending> pending_;  // stable addresses: xbyak labels must not move
};

BracketStub::~BracketStub() = default;

EmitResult emit_bracket_stub(const StubLayout& layout, const CallBody& body) {
    return emit_bracket_stub(layout, body, native_serialization());
}
EmitResult emit_bracket_stub(const StubLayout& layout, const CallBody&, Serialization s) {
    return StubEmitter::build(layout, nullptr, s);
}
EmitResult emit_bracket_stub(const StubLayout& layout, const InlineBody& body) {
    return emit_bracket_stub(layout, body, native_serialization());
}
EmitResult emit_bracket_stub(const StubLayout& layout, const InlineBody& body, Serialization s) {
    return StubEmitter::build(layout, &body, s);
}

}  // namespace glint::arch::x86_64
