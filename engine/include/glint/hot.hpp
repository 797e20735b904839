// <glint/hot.hpp>: performance counters read around any region of your own program.
//   glint::hot::Group counters({"cycles", "instructions"});  // open once (out of line)
//   if (!counters.ok()) std::fprintf(stderr, "glint: %s\n", counters.status().reason);
//   const auto before = counters.read(); process(item);      // read(): inline, no system call
//   const auto d = counters.read() - before - counters.read_cost();
//   if (!d.partial()) use(d.counts[0], d.counts[1], d.ticks); // partial: off the PMU, counts short
// Contracts: opening never throws (ok() false, status() says why and the remedy); read() makes
// no system call where user reads are granted, else falls back out of line; multiplexing is
// flagged, never scaled; nothing allocates; a Group counts the thread that opened it, and another
// thread's read is refused (counts kNotRead, thread_status() says why), never a wrong number.
// Rationale and details: "<glint/hot.hpp>" in glint's documentation (rationale.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include <glint/detail/hot_reader.hpp>
#include <glint/detail/hot_values.hpp>

namespace glint::hot {

inline constexpr std::size_t kMaxCounters = 8;
inline constexpr std::size_t kCalibrationPairs = 31;

// How reads are served, as decided at open.
enum class Path : std::uint8_t {
    none,              // not open
    inline_user,       // every counter read inline in user space: no system call
    out_of_line_user,  // user-space reads through the generic reader, out of line: no system call
    syscall,           // one read(2) of the group per read()
};

constexpr const char* to_string(Path path) {
    switch (path) {
        case Path::none:
            return "none";
        case Path::inline_user:
            return "inline user reads";
        case Path::out_of_line_user:
            return "out-of-line user reads";
        case Path::syscall:
            return "read(2)";
    }
    return "none";
}

// True when reads make no system call.
constexpr bool zero_syscall(Path path) {
    return path == Path::inline_user || path == Path::out_of_line_user;
}

struct Options {
    // Count user space only. When false and the kernel refuses kernel counting for lack of
    // permission (perf_event_paranoid), the group opens user-only and status() says so.
    bool user_only = false;
};

struct Status {
    bool ok = false;
    Path path = Path::none;
    bool user_only = false;  // the group counts user space only
    char reason[384] = {};   // !ok: why not; ok: how the group reads (and why not faster)
    char remedy[256] = {};   // what would make it available or faster; empty when nothing
};

// Which thread a group belongs to, and the reads other threads were refused.
struct ThreadStatus {
    long opened_on = 0;         // the OS's id of the thread that opened it (0: not known)
    long last_refused_on = 0;   // the thread of the last refused read (0: none, or not known)
    std::uint64_t refused = 0;  // reads refused (wrong_thread_reads())
    char reason[256] = {};      // which thread it counts and, once refused, who read it
    char remedy[128] = {};      // refused: one Group per thread; else empty
};

namespace detail {

struct Owner;  // the library's side of an opened group (the perf group, its pages)

// What open and attach decide; filled out of line. `owner` is always set (it holds the status,
// also of a group that did not open) and is the context `slow` is called with.
struct Opened {
    const Page* inline_pages[kMaxCounters] = {};
    SlowRead slow = nullptr;
    Owner* owner = nullptr;
};

void open_group(const std::string_view* names, std::size_t count, const Options& options,
                Opened& out);
void close_group(Owner* owner) noexcept;
const Status& status_of(const Owner* owner) noexcept;  // a closed (empty) status for nullptr
// The fallback of a group that is not open: every count (and descheduled_ns) kNotRead.
void read_nothing(const void* context, std::int64_t* counts, std::size_t count,
                  std::int64_t& descheduled_ns);
std::uint64_t failed_reads(const Owner* owner) noexcept;
std::uint64_t syscall_reads(const Owner* owner) noexcept;
std::uint64_t torn_fallbacks(const Owner* owner) noexcept;
// A read on another thread than the group's: every count kNotRead, descheduled_ns kNotRead + n
// (hot_values.hpp), counted in `owner` (any thread may call it; nullptr: moved from, not counted).
void refuse_read(Owner* owner, std::int64_t* counts, std::size_t count,
                 std::int64_t& descheduled_ns) noexcept;
std::uint64_t wrong_thread_reads(const Owner* owner) noexcept;
void thread_status_of(const Owner* owner, ThreadStatus& out);

// Decides the path of `count` pages (in group order) read with `slow` as the fallback.
void attach_pages(const void* const* pages, std::size_t count, SlowRead slow,
                  const void* slow_context, Opened& out);

// Per column c of `rows` x `columns` values (row-major), the median; into out[c].
void column_medians(const std::int64_t* values, std::size_t rows, std::size_t columns,
                    std::int64_t* out);

}  // namespace detail

// Pages opened elsewhere (tests, embedders with their own perf fds): pages[i] is counter i's
// perf_event_mmap_page (nullptr: never read in user space; pages[0] is the group leader's);
// slow reads every counter by other means (read(2)), for the counters whose pages do not grant a
// user read when the fallback runs (the others it reads with the generic protocol), and the
// group's time_enabled - time_running as that read gives them (read_format
// PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING). The pages and the context
// must outlive the group.
struct Attachment {
    const void* pages[kMaxCounters] = {};
    detail::SlowRead slow = nullptr;
    const void* slow_context = nullptr;
};

template <std::size_t N>
class Group {
    static_assert(N >= 1 && N <= kMaxCounters, "a group has 1 to kMaxCounters counters");

  public:
    // Opens `names` as one group, in this order, and calibrates the read pairs: generic perf
    // names (cycles, instructions, branches, branch-misses, cache-references, cache-misses,
    // page-faults, task-clock, context-switches, cpu-migrations), or raw:r<hex> and pfm:<name>
    // selectors (as --metrics takes them; pfm: through libpfm4 where it loads) - one kind per
    // group.
    // (const char*, not string_view: a braced list of literals then binds to this constructor
    // by a standard conversion, never ambiguously with the move constructor.)
    explicit Group(const char* const (&names)[N], const Options& options = {}) {
        std::string_view views[N];
        for (std::size_t i = 0; i < N; ++i) views[i] = names[i];
        detail::Opened opened;
        detail::open_group(views, N, options, opened);
        adopt(opened);
    }

    static Group attach(const Attachment& attachment) {
        detail::Opened opened;
        detail::attach_pages(attachment.pages, N, attachment.slow, attachment.slow_context, opened);
        return Group(opened);
    }

    ~Group() { detail::close_group(owner_); }
    Group(Group&& other) noexcept { take(other); }
    Group& operator=(Group&& other) noexcept {
        if (this != &other) {
            detail::close_group(owner_);
            take(other);
        }
        return *this;
    }
    Group(const Group&) = delete;
    Group& operator=(const Group&) = delete;

    // Out of line: the status lives with the library's side of the group, which keeps the
    // Group itself small (its pages, the fallback and the calibrated costs).
    const Status& status() const { return detail::status_of(owner_); }
    bool ok() const { return status().ok; }
    Path path() const { return status().path; }
    static constexpr std::size_t size() { return N; }

    // A timestamp (ordered after the preceding code), then the running counts in group order
    // and descheduled_ns. No system call on a user path; a page that stops granting the read,
    // or a seqlock torn os::user_page::kMaxTornReads times, goes out of line (torn_fallbacks()).
    // On another thread than the group's, out of line too: refused (every count kNotRead).
    [[gnu::always_inline]] Snapshot<N> read() const {
        Snapshot<N> s;
        s.ticks = arch::native::timestamp_begin();
        if (detail::this_thread() != thread_ ||
            !detail::read_slots(pages_, s.counts, s.descheduled_ns, std::make_index_sequence<N>{}))
            [[unlikely]]
            return read_again(s.ticks);
        for (std::int64_t& count : s.counts) detail::in_register(count);
        detail::in_register(s.descheduled_ns);
        return s;
    }

    // The counts alone: the same ordered reads without the timestamp, for a region that needs
    // no ticks (one instruction less per read, and nothing more to keep across the region).
    [[gnu::always_inline]] Counts<N> read_counts() const {
        Counts<N> c;
        arch::native::read_barrier();
        if (detail::this_thread() != thread_ ||
            !detail::read_slots(pages_, c.counts, c.descheduled_ns, std::make_index_sequence<N>{}))
            [[unlikely]]
            return read_counts_again();
        for (std::int64_t& count : c.counts) detail::in_register(count);
        detail::in_register(c.descheduled_ns);
        return c;
    }

    // The median empty read() pair, per counter and in ticks (zero when the group is not ok);
    // its descheduled_ns is 0, so subtracting it leaves a region's flag as it was.
    const Delta<N>& read_cost() const { return cost_; }
    // The median empty read_counts() pair.
    const Counts<N>& read_counts_cost() const { return counts_cost_; }

    // Measures read_cost() and read_counts_cost() again: kCalibrationPairs empty pairs each,
    // after a few warm-up reads. On another thread than the group's: one refused read, and the
    // costs stay as they were.
    [[gnu::noinline]] const Delta<N>& recalibrate() {
        if (detail::this_thread() != thread_) {
            (void)read();
            return cost_;
        }
        if (!ok()) return cost_;
        for (int warm = 0; warm < 4; ++warm) (void)(read() - read());
        cost_ = calibrate([this] { return read(); });
        const Delta<N> counts = calibrate([this] { return read_counts(); });
        for (std::size_t i = 0; i < N; ++i) counts_cost_.counts[i] = counts.counts[i];
        counts_cost_.descheduled_ns = 0;
        return cost_;
    }

    // Reads whose read(2) failed (their counts are kNotRead).
    std::uint64_t failed_reads() const { return detail::failed_reads(owner_); }
    // Reads the fallback served with read(2) (attached: with Attachment::slow), since the open.
    std::uint64_t syscall_reads() const { return detail::syscall_reads(owner_); }
    // Of those, reads of a page whose seqlock did not settle: the inline reader and then the
    // fallback's generic reader each gave up after os::user_page::kMaxTornReads torn reads.
    std::uint64_t torn_fallbacks() const { return detail::torn_fallbacks(owner_); }

    // Reads refused because they ran on another thread than the one that opened (or attached)
    // the group; thread_status() names both threads and the remedy. A move, on whatever thread,
    // keeps the group's thread: moved elsewhere, it still counts (and is read on) the opener.
    std::uint64_t wrong_thread_reads() const { return detail::wrong_thread_reads(owner_); }
    ThreadStatus thread_status() const {
        ThreadStatus out;
        detail::thread_status_of(owner_, out);
        return out;
    }

  private:
    explicit Group(const detail::Opened& opened) { adopt(opened); }

    // The jump to the fallback (or the refusal of another thread's read): out of line, so the
    // fast path's snapshot never has its address taken and stays in registers.
    [[gnu::noinline, gnu::cold]] Snapshot<N> read_again(std::uint64_t ticks) const {
        Snapshot<N> s;
        s.ticks = ticks;
        read_out_of_line(s.counts, s.descheduled_ns);
        return s;
    }
    [[gnu::noinline, gnu::cold]] Counts<N> read_counts_again() const {
        Counts<N> c;
        read_out_of_line(c.counts, c.descheduled_ns);
        return c;
    }
    void read_out_of_line(std::int64_t* counts, std::int64_t& descheduled_ns) const {
        if (detail::this_thread() != thread_)
            detail::refuse_read(owner_, counts, N, descheduled_ns);
        else slow_(owner_, counts, N, descheduled_ns);
    }

    void adopt(const detail::Opened& opened) {
        for (std::size_t i = 0; i < N; ++i)
            pages_[i] = opened.inline_pages[i] ? opened.inline_pages[i] : &detail::kNeverReadable;
        slow_ = opened.slow;
        owner_ = opened.owner;
        thread_ = detail::this_thread();
        recalibrate();
    }

    template <class Read>
    [[gnu::always_inline]] Delta<N> calibrate(Read&& read_one) const {
        std::int64_t values[kCalibrationPairs][N + 1];
        for (auto& row : values) {
            const auto a = read_one();
            const auto b = read_one();
            const auto d = b - a;
            for (std::size_t i = 0; i < N; ++i) row[i] = d.counts[i];
            if constexpr (requires { d.ticks; }) row[N] = d.ticks;
            else row[N] = 0;
        }
        std::int64_t medians[N + 1];
        detail::column_medians(&values[0][0], kCalibrationPairs, N + 1, medians);
        Delta<N> cost;
        for (std::size_t i = 0; i < N; ++i) cost.counts[i] = medians[i];
        cost.ticks = medians[N];
        cost.descheduled_ns =
            0;  // a cost, not a region: it never flags the region it is taken from
        return cost;
    }

    void take(Group& other) {
        for (std::size_t i = 0; i < N; ++i) pages_[i] = other.pages_[i];
        slow_ = other.slow_;
        owner_ = std::exchange(other.owner_, nullptr);
        thread_ = other.thread_;  // the opener's, whichever thread moves it
        cost_ = other.cost_;
        counts_cost_ = other.counts_cost_;
        other.slow_ = &detail::read_nothing;
        for (std::size_t i = 0; i < N; ++i) other.pages_[i] = &detail::kNeverReadable;
    }

    const detail::Page* pages_[N];
    detail::SlowRead slow_ = nullptr;  // called with owner_ (read_nothing ignores it)
    detail::Owner* owner_ = nullptr;
    const void* thread_ = nullptr;  // detail::this_thread() of the opener
    Delta<N> cost_;
    Counts<N> counts_cost_{};
};

}  // namespace glint::hot
