#include "os/linux/x86_64/rdpmc_path.hpp"

#include <linux/perf_event.h>

#include <cstddef>

#include <fmt/format.h>

#include "arch/x86_64/pmu.hpp"
#include "os/linux/mmap_page.hpp"
#include "os/words.hpp"

namespace glint::os::linux_::x86_64 {
namespace {

namespace stub = glint::arch::x86_64;
using Pmu = glint::arch::x86_64::Pmu;

const perf_event_mmap_page* as_page(const void* page) {
    return static_cast<const perf_event_mmap_page*>(page);
}

stub::PageFields page_fields() {
    stub::PageFields f;
    f.lock = static_cast<std::int32_t>(offsetof(perf_event_mmap_page, lock));
    f.index = static_cast<std::int32_t>(offsetof(perf_event_mmap_page, index));
    f.offset = static_cast<std::int32_t>(offsetof(perf_event_mmap_page, offset));
    f.capabilities = static_cast<std::int32_t>(offsetof(perf_event_mmap_page, capabilities));
    f.user_read_bit = 2;  // cap_user_rdpmc: after cap_bit0 and cap_bit0_is_deprecated
    return f;
}

std::string names_of(const std::vector<Event>& members, const std::vector<std::size_t>& which) {
    std::vector<Event> events;
    for (std::size_t m : which) events.push_back(members[m]);
    return join_events(events);
}

}  // namespace

std::unique_ptr<RdpmcPath> RdpmcPath::create(PerfGroup& group,
                                             const std::vector<MemberPage>& probed,
                                             std::string& error) {
    std::unique_ptr<RdpmcPath> path(new RdpmcPath(group));
    path->members_ = group.spec().events;
    path->layout_.fields = page_fields();
    path->layout_.slow_read = &RdpmcPath::slow_read;
    path->layout_.slow_context = path.get();
    path->layout_.max_retries = linux_::kMaxTornReads;
    for (std::size_t m = 0; m < path->members_.size(); ++m) {
        if (!read_with_rdpmc(path->members_[m])) {
            path->software_.push_back(m);
            continue;
        }
        const PageCapabilities& caps = probed.at(m).caps;
        if (!page_grants(caps) || path->hardware_.size() == stub::kMaxStubCounters) {
            error = fmt::format("{} cannot be read with rdpmc (index {}, pmc_width {})",
                                event_name(path->members_[m]), caps.index, caps.pmc_width);
            return nullptr;
        }
        path->hardware_.push_back(m);
        path->layout_.counters.push_back({group.page(m), caps.index, caps.pmc_width});
    }
    if (!path->emit(error)) return nullptr;
    return path;
}

bool RdpmcPath::emit(std::string& error) {
    stub::EmitResult result = stub::emit_bracket_stub(layout_, stub::CallBody{});
    if (!result.stub) {
        error = result.error;
        return false;
    }
    stub_ = std::move(result.stub);
    return true;
}

// Re-bakes the indices and widths the pages show now (the group enabled); a page that does not
// grant a read keeps its old slot: its guard fails and slow_read serves it.
bool RdpmcPath::refresh_layout() {
    bool moved = false;
    for (std::size_t s = 0; s < hardware_.size(); ++s) {
        const PageCapabilities caps = capabilities_of(as_page(page_of(hardware_[s])));
        stub::StubCounter& c = layout_.counters[s];
        if (page_grants(caps) && (caps.index != c.index || caps.pmc_width != c.width)) {
            c.index = caps.index;
            c.width = caps.pmc_width;
            moved = true;
        }
    }
    if (!moved) return true;
    std::string error;
    if (!emit(error)) return false;
    ++stats_.restubs;
    return true;
}

std::string RdpmcPath::describe() const {
    std::string text = fmt::format(
        "rdpmc (a JIT stub reads {} with rdpmc from their perf mmap pages: no system call inside "
        "the counting window",
        names_of(members_, hardware_));
    if (!software_.empty())
        text += fmt::format(
            "; {} (software, index 0) read with read(2) just before and after "
            "each stub, outside the window, which also gives enabled/running",
            names_of(members_, software_));
    else if (group_reads_)
        text +=
            "; enabled/running read with read(2) around each stub (the leader's page has no "
            "cap_user_time)";
    else
        text +=
            "; enabled/running from the leader's page (cap_user_time): no system call per "
            "bracket";
    return text + ")";
}

bool RdpmcPath::begin_pass() {
    if (!group_.enable()) return false;
    if (!refresh_layout()) {
        group_.disable();
        return false;
    }
    group_reads_ = !software_.empty() || !capabilities_of(as_page(page_of(0))).user_time;
    return true;
}

void RdpmcPath::end_pass() { group_.disable(); }

void RdpmcPath::run_guarded(void* ctx, std::uint64_t n) noexcept {
    auto* guarded = static_cast<Guarded*>(ctx);
    try {
        guarded->body.run(guarded->body.ctx, n);
    } catch (...) {
        guarded->error = std::current_exception();
    }
}

std::int64_t RdpmcPath::slow_read(void* self, std::uint32_t slot) {
    auto* path = static_cast<RdpmcPath*>(self);
    const std::size_t member = path->hardware_[slot];
    const PageReading r = read_page<Pmu, false>(as_page(path->page_of(member)));
    if (r.user_read) return r.count;
    ++path->stats_.read2_fallbacks;
    GroupReading reading;
    if (!path->group_.read(reading) || member >= reading.size) {
        ++path->stats_.failed_reads;
        path->slow_failed_ = true;
        return 0;
    }
    return static_cast<std::int64_t>(reading.values[member]);
}

GroupDelta RdpmcPath::bracket(Body body, std::uint64_t n) {
    const auto* leader = as_page(page_of(0));
    GroupReading before, after;
    PageReading leader_before, leader_after;
    // A failed read spoils the bracket, but the body still runs once per bracket: a per-call
    // case's after() expects the result of its timed() call.
    if (group_reads_) {
        group_.read(before);
    } else {
        leader_before = read_page<Pmu, true>(leader);
    }
    Guarded guarded{body, nullptr};
    stub::BracketRecord record;
    slow_failed_ = false;
    const std::uint64_t t0 = arch::x86_64::timestamp_begin();
    (*stub_)(&RdpmcPath::run_guarded, &guarded, n, &record);
    const std::uint64_t t1 = arch::x86_64::timestamp_end();
    if (group_reads_) group_.read(after);
    else leader_after = read_page<Pmu, true>(leader);
    ++stats_.brackets;
    stats_.retries += record.retries;
    stats_.slow_reads += record.slow_reads;
    stats_.torn_fallbacks += record.torn_fallbacks;
    last_ticks_ = static_cast<double>(t1 - t0);
    if (guarded.error) {
        group_.disable();
        std::rethrow_exception(guarded.error);
    }

    GroupDelta d;
    d.size = members_.size();
    d.ok = !slow_failed_;
    for (std::size_t s = 0; s < hardware_.size(); ++s) {
        if (record.counts[s] < 0) d.ok = false;
        d.counts[hardware_[s]] = static_cast<std::uint64_t>(record.counts[s]);
    }
    if (group_reads_) {
        const GroupDelta around = delta_between(before, after);
        if (!around.ok) return GroupDelta{};
        for (std::size_t m : software_) d.counts[m] = around.counts[m];
        d.enabled = around.enabled;
        d.running = around.running;
    } else {
        if (leader_after.enabled < leader_before.enabled ||
            leader_after.running < leader_before.running)
            return GroupDelta{};
        d.enabled = leader_after.enabled - leader_before.enabled;
        d.running = leader_after.running - leader_before.running;
    }
    if (!d.ok) return GroupDelta{};
    return d;
}

void RdpmcPath::meta(MetaWriter& m) const {
    m.records("counters");
    for (std::size_t s = 0; s < hardware_.size(); ++s) {
        MetaWriter& c = m.append_record("counters");
        c.text("event", event_name(members_[hardware_[s]]));
        c.number("index", layout_.counters[s].index);
        c.number("pmcWidth", layout_.counters[s].width);
    }
    std::vector<std::string> software;
    for (std::size_t member : software_) software.emplace_back(event_name(members_[member]));
    m.texts("readWithRead2", software);
    m.text("times", group_reads_ ? "read(2) of the group around each stub"
                                 : "the leader's mmap page (cap_user_time)");
    if (stub_) {
        m.number("stubBytes", static_cast<double>(stub_->size()));
        m.text("serialization", stub::to_string(stub_->serialization()));
    }
    m.number("brackets", static_cast<double>(stats_.brackets));
    m.number("seqlockRetries", static_cast<double>(stats_.retries));
    m.number("slowReads", static_cast<double>(stats_.slow_reads));
    m.number("tornFallbacks", static_cast<double>(stats_.torn_fallbacks));
    m.number("read2Fallbacks", static_cast<double>(stats_.read2_fallbacks));
    m.number("failedReads", static_cast<double>(stats_.failed_reads));
    m.number("restubs", static_cast<double>(stats_.restubs));
}

}  // namespace glint::os::linux_::x86_64
