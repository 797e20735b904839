// The out-of-line half of <glint/hot.hpp>: resolving names, opening the perf group, deciding
// the read path, and the fallback read. Nothing here runs per read unless the inline reader
// jumps to the fallback.
#include <glint/hot.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/counting/messages.hpp"
#include "engine/hot/events.hpp"
#include "os/perf_events.hpp"
#include "os/perf_probes.hpp"
#include "os/process.hpp"

namespace glint::hot::detail {

// The library's side of a group: what the fallback reads with.
struct Owner {
    Status status;
    os::PerfGroup group;          // opened by name (not open for an attached group)
    SlowRead attached = nullptr;  // an attached group's own fallback
    const void* attached_context = nullptr;
    const Page* pages[kMaxCounters] = {};  // mapped pages (nullptr when not mapped)
    std::uint64_t failed = 0;
    std::uint64_t syscall_reads = 0;  // fallback reads that needed read(2) (or `attached`)
    std::uint64_t torn = 0;           // of those, because a page's seqlock did not settle
    // The thread it belongs to, and reads other threads were refused (any thread bumps these).
    long opened_on = os::thread_id();
    std::atomic<std::uint64_t> wrong_thread{0};
    std::atomic<long> last_wrong_thread{0};
};

namespace {

using GenericPolicy = os::user_page_policy<arch::native>;

void copy_text(char* out, std::size_t capacity, std::string_view text) {
    const std::size_t n = std::min(capacity - 1, text.size());
    if (n != 0)
        std::memcpy(out, text.data(), n);  // an empty view may hold nullptr: never memcpy it
    out[n] = '\0';
}

void set_reason(Status& status, std::string_view reason, std::string_view remedy = {}) {
    copy_text(status.reason, sizeof status.reason, reason);
    copy_text(status.remedy, sizeof status.remedy, remedy);
}

// A generic user read of one page: the protocol with the page's own index and width; the
// leader's (slot 0) with its published times, for descheduled_ns (as the inline reader).
bool generic_user_read(const Page* page, std::size_t slot, std::int64_t& out,
                       std::int64_t& descheduled_ns, bool& torn) {
    if (page == nullptr) return false;
    using Times = os::user_page::PageTimes;
    const auto r = slot == 0 ? os::user_page::read_page_with<GenericPolicy, Times::published>(page)
                             : os::user_page::read_page_with<GenericPolicy, Times::none>(page);
    out = r.count;
    if (slot == 0 && r.user_read) descheduled_ns = static_cast<std::int64_t>(r.enabled - r.running);
    torn = torn || r.torn;
    return r.user_read;
}

// The fallback of every group: each counter again, in user space where its page grants it
// (the generic protocol: the page's own index and width), the others from one read(2) of the
// group (or the attached group's own fallback). descheduled_ns comes from the leader's page when
// it grants the read, else from the read(2) (its time_enabled - time_running): the same
// quantity, since the kernel republishes the page whenever it puts the group back on the PMU.
void owner_slow_read(const void* context, std::int64_t* counts, std::size_t count,
                     std::int64_t& descheduled_ns) {
    auto* owner = const_cast<Owner*>(static_cast<const Owner*>(context));
    std::int64_t other[kMaxCounters];
    std::int64_t other_descheduled = 0;
    bool other_read = false;
    bool leader_on_page = false;
    bool torn = false;
    for (std::size_t i = 0; i < count; ++i) {
        if (generic_user_read(owner->pages[i], i, counts[i], descheduled_ns, torn)) {
            leader_on_page = leader_on_page || i == 0;
            continue;
        }
        if (!other_read) {
            other_read = true;
            ++owner->syscall_reads;
            if (owner->attached) {
                owner->attached(owner->attached_context, other, count, other_descheduled);
            } else {
                os::GroupReading reading;
                if (!owner->group.read(reading)) {
                    ++owner->failed;
                    read_nothing(nullptr, counts, count, descheduled_ns);
                    return;
                }
                for (std::size_t j = 0; j < count; ++j)
                    other[j] = static_cast<std::int64_t>(reading.values[j]);
                other_descheduled = static_cast<std::int64_t>(reading.enabled - reading.running);
            }
        }
        counts[i] = other[i];
    }
    if (!leader_on_page) descheduled_ns = other_descheduled;
    if (torn && other_read) ++owner->torn;
}

// Whether slot `slot` of an inline reader reads `page` in user space now.
template <std::size_t... I>
bool inline_read_works(std::size_t slot, const Page* page, std::index_sequence<I...>) {
    std::int64_t ignored = 0;
    std::int64_t descheduled = 0;
    bool works = false;
    ((slot == I ? (works = read_slot<I>(page, ignored, descheduled), true) : false) || ...);
    return works;
}

std::string user_read_remedy() {
    const std::string_view arch = arch::native::kName;
    if (arch == "x86_64")
        return "user rdpmc needs a CPU PMU and /sys/bus/event_source/devices/cpu/rdpmc set to 1 "
               "(or 2)";
    if (arch == "aarch64")
        return "arm64 user access needs sysctl kernel.perf_user_access=1 and events opened with "
               "attr.config1 bit 1 on the core PMU";
    return "this architecture has no user-space counter reads in glint";
}

// Classifies `count` pages (nullptr: not mapped) and fills out's path, inline pages and the
// status's reason (prefixed by `what`: the events). `known_cause`, when set, is why a page does
// not grant a user read (the open knows: pages not mapped, user access not requested).
void classify(const Page* const* pages, std::size_t count, const std::string& what,
              const std::string& known_cause, Status& s, Opened& out) {
    bool all_inline = true;
    bool all_user = true;
    std::string not_user;
    std::string not_inline;
    for (std::size_t i = 0; i < count; ++i) {
        // One reading per page: whether it grants a user read, and the index the reasons name.
        const auto r = pages[i] ? os::user_page::read_page<GenericPolicy, false>(pages[i])
                                : os::user_page::PageReading{};
        const bool user = r.user_read;
        const bool fast =
            user && inline_read_works(i, pages[i], std::make_index_sequence<kMaxCounters>{});
        all_user = all_user && user;
        all_inline = all_inline && fast;
        if (!user && not_user.empty()) {
            if (!known_cause.empty()) {
                not_user = known_cause;
            } else if (pages[i] == nullptr) {
                not_user = "its perf page is not mapped";
            } else {
                not_user =
                    fmt::format("counter {} {}", i,
                                r.index == 0 ? "is not on a hardware counter now (page index 0)"
                                             : "is not granted to user space (cap_user_rdpmc 0)");
            }
        }
        if (user && !fast && not_inline.empty()) {
            not_inline = fmt::format("counter {} sits at page index {}", i, r.index);
        }
    }
    s.ok = true;
    if (all_inline) {
        s.path = Path::inline_user;
        for (std::size_t i = 0; i < count; ++i) out.inline_pages[i] = pages[i];
        set_reason(
            s, fmt::format("{}: every counter read inline in user space ({}), no system call", what,
                           arch::native::kUserReadName));
    } else if (all_user) {
        s.path = Path::out_of_line_user;
        set_reason(s,
                   fmt::format("{}: user-space reads through the generic reader, out of line, no "
                               "system call ({}, a layout the inline reader is not specialised on)",
                               what, not_inline),
                   "on arm64 the inline reader expects cycles first (the cycle counter), then "
                   "event counters 1, 2, ... with 32-bit counters");
    } else {
        s.path = Path::syscall;
        set_reason(s, fmt::format("{}: each read is one read(2) of the group ({})", what, not_user),
                   user_read_remedy());
    }
}

// Why the open failed, and the remedy.
void explain_open_failure(const os::OpenFailure& failure, const os::GroupSpec& spec, Status& s) {
    const bool spec_is_generic = spec.specs.empty();
    namespace counting = engine::counting;
    if (counting::is_permission_error(failure.error)) {
        set_reason(s, counting::permission_refused_reason(failure.error, os::perf_event_paranoid()),
                   counting::permission_remedy());
    } else if (counting::is_unsupported_error(failure.error) && spec_is_generic &&
               os::is_hardware(failure.event)) {
        set_reason(s, counting::no_hardware_reason(os::list_pmus(), failure, os::kPmuSysfsRoot),
                   "hardware events need a CPU PMU: run on a host, or in a VM with a virtual PMU");
    } else if (!spec_is_generic && failure.member < spec.specs.size()) {
        set_reason(
            s, fmt::format("perf_event_open({}) failed with {}", spec.specs[failure.member].name,
                           counting::describe_errno(failure.error)));
    } else {
        set_reason(s, counting::open_failed_reason(failure));
    }
}

}  // namespace

void read_nothing(const void*, std::int64_t* counts, std::size_t count,
                  std::int64_t& descheduled_ns) {
    for (std::size_t i = 0; i < count; ++i) counts[i] = kNotRead;
    descheduled_ns = kNotRead;
}

void open_group(const std::string_view* names, std::size_t count, const Options& options,
                Opened& out) {
    out = Opened{};
    out.slow = &read_nothing;
    if (count == 0 || count > kMaxCounters) {
        std::fprintf(stderr, "glint: hot::Group: %zu events (1..%zu allowed)\n", count,
                     kMaxCounters);
        std::abort();
    }
    auto owner = std::make_unique<Owner>();
    Status& status = owner->status;
    out.owner = owner.get();  // released below: the status lives there whatever happens
    std::vector<os::Event> events;
    std::vector<os::EventSpec> selected;  // raw:/pfm: selectors
    std::string names_text;
    for (std::size_t i = 0; i < count; ++i) {
        const EventLookup found = lookup_event(names[i]);
        if (!found.event && !found.spec) {
            set_reason(status, found.error, found.remedy);
            owner.release();
            return;
        }
        if (found.event) events.push_back(*found.event);
        if (found.spec) selected.push_back(*found.spec);
        names_text += (i ? ", " : "") + std::string(names[i]);
    }
    if (!events.empty() && !selected.empty()) {
        set_reason(status,
                   fmt::format("{}: a group is all generic names or all raw:/pfm: selectors, "
                               "not both",
                               names_text),
                   "open two groups");
        owner.release();
        return;
    }
    os::GroupSpec spec;
    spec.events = events;
    spec.specs = selected;
    spec.exclude_kernel = options.user_only;
    // Where the kernel wants a per-event opt-in for user reads (arm64: attr.config1 bit 1), ask;
    // with 32-bit counters, the layout the inline arm64 reader is specialised on (arch SlotPmu).
    // x86 needs no opt-in: nothing changes there.
    spec.user_access = true;
    spec.want_64bit = false;
    os::OpenFailure failure;
    bool opened = owner->group.open(spec, failure);
    if (!opened && !options.user_only && engine::counting::is_permission_error(failure.error)) {
        spec.exclude_kernel = true;
        opened = owner->group.open(spec, failure);
    }
    if (!opened) {
        explain_open_failure(failure, spec, status);
        owner.release();
        return;
    }
    status.user_only = spec.exclude_kernel;
    if (!owner->group.enable()) {
        set_reason(status, fmt::format("the group opened but could not be enabled: {}",
                                       engine::counting::describe_errno(errno)));
        owner->group.close();
        owner.release();
        return;
    }
    std::string unmapped;
    if (const int error = owner->group.map_pages(); error != 0) {
        unmapped = fmt::format("its perf page could not be mapped: {}",
                               engine::counting::describe_errno(error));
    } else {
        for (std::size_t i = 0; i < count; ++i)
            owner->pages[i] = static_cast<const Page*>(owner->group.page(i));
    }
    std::string what = names_text;
    if (spec.exclude_kernel && !options.user_only) what += " (user-only: kernel counting refused)";
    const os::UserAccessGrant& grant = owner->group.user_access();
    std::string not_granted = unmapped;
    if (grant.mode == os::UserAccessGrant::Mode::refused && not_granted.empty())
        not_granted = "user access not requested: " + grant.reason;
    classify(owner->pages, count, what, not_granted, status, out);
    if (status.path == Path::syscall && grant.mode == os::UserAccessGrant::Mode::refused &&
        !grant.remedy.empty())
        set_reason(status, status.reason, grant.remedy);
    out.slow = &owner_slow_read;
    owner.release();  // out.owner already points at it
}

void close_group(Owner* owner) noexcept { delete owner; }

const Status& status_of(const Owner* owner) noexcept {
    static const Status kClosed{};
    return owner ? owner->status : kClosed;
}

std::uint64_t failed_reads(const Owner* owner) noexcept { return owner ? owner->failed : 0; }
std::uint64_t syscall_reads(const Owner* owner) noexcept {
    return owner ? owner->syscall_reads : 0;
}
std::uint64_t torn_fallbacks(const Owner* owner) noexcept { return owner ? owner->torn : 0; }

void refuse_read(Owner* owner, std::int64_t* counts, std::size_t count,
                 std::int64_t& descheduled_ns) noexcept {
    // Distinct per refused read, process-wide: two refused reads never differ by 0 (partial()).
    static std::atomic<std::int64_t> refusals{0};
    read_nothing(nullptr, counts, count, descheduled_ns);
    descheduled_ns = kNotRead + 1 + refusals.fetch_add(1, std::memory_order_relaxed);
    if (owner == nullptr) return;
    owner->last_wrong_thread.store(os::thread_id(), std::memory_order_relaxed);
    owner->wrong_thread.fetch_add(1, std::memory_order_relaxed);
}

std::uint64_t wrong_thread_reads(const Owner* owner) noexcept {
    return owner ? owner->wrong_thread.load(std::memory_order_relaxed) : 0;
}

void thread_status_of(const Owner* owner, ThreadStatus& out) {
    out = ThreadStatus{};
    if (owner == nullptr) {
        copy_text(out.reason, sizeof out.reason, "no group here (moved from): nothing is read");
        return;
    }
    out.opened_on = owner->opened_on;
    out.refused = owner->wrong_thread.load(std::memory_order_relaxed);
    out.last_refused_on =
        out.refused ? owner->last_wrong_thread.load(std::memory_order_relaxed) : 0;
    const auto thread = [](long id) {
        return id ? fmt::format("thread {}", id) : std::string("another thread");
    };
    const std::string opener = owner->opened_on ? thread(owner->opened_on) : "its thread";
    if (out.refused == 0) {
        copy_text(out.reason, sizeof out.reason,
                  fmt::format("counts {}, the thread that opened it; no read was refused", opener));
        return;
    }
    copy_text(out.reason, sizeof out.reason,
              fmt::format("{} read(s) refused (every count kNotRead), the last on {}: the group "
                          "was opened on {} and counts that thread only",
                          out.refused, thread(out.last_refused_on), opener));
    copy_text(out.remedy, sizeof out.remedy,
              "open one Group per thread, and read each on the thread that opened it");
}

void attach_pages(const void* const* pages, std::size_t count, SlowRead slow,
                  const void* slow_context, Opened& out) {
    out = Opened{};
    out.slow = &read_nothing;
    if (count == 0 || count > kMaxCounters) std::abort();
    auto owner = std::make_unique<Owner>();
    owner->attached = slow ? slow : &read_nothing;
    owner->attached_context = slow_context;
    for (std::size_t i = 0; i < count; ++i) owner->pages[i] = static_cast<const Page*>(pages[i]);
    classify(owner->pages, count, fmt::format("{} attached counters", count), "", owner->status,
             out);
    out.slow = &owner_slow_read;
    out.owner = owner.release();
}

void column_medians(const std::int64_t* values, std::size_t rows, std::size_t columns,
                    std::int64_t* out) {
    std::vector<std::int64_t> column(rows);
    for (std::size_t c = 0; c < columns; ++c) {
        for (std::size_t r = 0; r < rows; ++r) column[r] = values[r * columns + c];
        std::sort(column.begin(), column.end());
        out[c] = rows == 0 ? 0 : column[(rows - 1) / 2];
    }
}

}  // namespace glint::hot::detail
