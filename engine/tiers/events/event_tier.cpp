#include "engine/tiers/events/event_tier.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>

#include <fmt/format.h>

#include "engine/counting/event_counter.hpp"
#include "engine/counting/event_naming.hpp"
#include "engine/counting/messages.hpp"
#include "engine/tiers/events/selectors.hpp"
#include "engine/tiers/preexisting_threads.hpp"
#include "os/perf_probes.hpp"

namespace glint::engine {
namespace {

using catalog::EventSelector;
using State = Status::State;

std::string refusal_reason(int error, const os::EventSpec& spec) {
    if (error == E2BIG) return fmt::format("more than {} events in one group", os::kMaxGroupEvents);
    std::string reason = "the kernel refused it: " + counting::describe_errno(error);
    if (counting::is_permission_error(error))
        return reason + " (" + counting::describe_paranoid(os::perf_event_paranoid()) + ")";
    if (counting::is_unsupported_error(error) && spec.type == os::kRawEventType) {
        const os::PmuInventory pmus = os::list_pmus();
        if (pmus.listed && pmus.cpu_pmus.empty())
            return reason + fmt::format(
                                "; no CPU PMU is registered ({} lists none), so no "
                                "raw encoding can count here",
                                os::kPmuSysfsRoot);
        return reason + "; this PMU does not accept the encoding";
    }
    return reason;
}

class EventTier final : public CountingTier {
  public:
    // A twin (one thread of a glint::threads row) counts its own thread only.
    explicit EventTier(EventSelector::Family family, bool twin = false)
        : family_(family), twin_(twin) {}
    ~EventTier() override { close(); }

    std::string_view source() const override { return catalog::family_source(family_); }

    bool wanted(const TierRequest& request) const override {
        return !events::family_selectors(request.metrics, family_).empty();
    }

    std::unique_ptr<CountingTier> thread_twin() const override {
        return std::make_unique<EventTier>(family_, true);
    }

    std::vector<Status> open(const TierRequest& request) override {
        close();
        entries_.clear();
        statuses_.clear();
        for (auto& selector : events::family_selectors(request.metrics, family_)) {
            Entry e;
            e.resolved = counting::resolve_event(selector);
            e.selector = std::move(selector);
            entries_.push_back(std::move(e));
        }
        if (entries_.empty()) return {};
        std::vector<os::EventSpec> specs;
        std::vector<std::size_t> index;  // entries_ index of each spec
        for (std::size_t i = 0; i < entries_.size(); ++i) {
            if (!entries_[i].resolved.ok) continue;
            specs.push_back(entries_[i].resolved.spec);
            index.push_back(i);
        }
        inherit_ = request.perf.inherit;
        const bool opened = !specs.empty() && counter_.open(specs, inherit_);
        // Inherit follows the threads started after the open: count those already there too.
        if (opened && inherit_ && !twin_) others_.open(counter_.spec(), std::string(source()));
        for (std::size_t k = 0; k < index.size(); ++k) {
            Entry& e = entries_[index[k]];
            e.position = k;
            const int refusal = k < counter_.requested() ? counter_.refusal(k) : 0;
            if (opened && refusal == 0) {
                e.counting = true;
                continue;
            }
            const int error = refusal != 0 ? refusal : EINVAL;
            e.reason = refusal_reason(error, e.resolved.spec);
            if (counting::is_permission_error(error))
                e.remedy = counting::permission_remedy() + ", or count user space only (:u)";
        }
        for (auto& e : entries_)
            if (!e.resolved.ok) {
                e.reason = e.resolved.reason;
                e.remedy = e.resolved.remedy;
            }
        build_statuses();
        return statuses_;
    }

    std::vector<catalog::MetricDescriptor> family() const override {
        std::vector<catalog::MetricDescriptor> out;
        for (const auto& e : entries_) out.push_back(describe(e));
        return out;
    }

    std::vector<std::string> header_notes() const override {
        std::vector<std::string> lines;
        if (statuses_.empty()) return lines;
        const std::string prefix = std::string(source()) + ": ";
        for (const auto& s : statuses_) lines.push_back(prefix + with_remedy(s));
        const counting::BracketCost& cost = counter_.open_cost();
        if (counter_.usable() && cost.measured) {
            std::string parts;
            for (const auto& e : entries_) {
                if (!e.counting) continue;
                parts += fmt::format("{}{} {:.0f}", parts.empty() ? "" : ", ", e.selector.text,
                                     counter_.open_cost_of(e.position));
            }
            lines.push_back(prefix + fmt::format("read path syscall; bracket self-cost at open "
                                                 "(median of {} empty brackets): {}; each pass "
                                                 "subtracts its own interleaved empty brackets",
                                                 cost.samples, parts));
        }
        return lines;
    }

    Json meta() const override {
        Json m = status_meta(statuses_);
        m["readPath"] = counter_.usable() ? Json("syscall") : Json();
        Json events = Json::array();
        for (const auto& e : entries_) {
            Json j = Json::object();
            j["selector"] = e.selector.text;
            j["encoding"] = e.resolved.ok ? Json(e.resolved.encoding) : Json();
            counter_.add_column_facts(j, e.position, e.counting, e.reason);
            events.push_back(std::move(j));
        }
        m["events"] = std::move(events);
        return m;
    }

    PassResult count(const Workload& work, const PassPlan& plan) override {
        // The threads that existed before the open are read around the pass.
        std::vector<CounterColumn> columns;
        for (const auto& e : entries_) columns.push_back({describe(e), e.position, e.counting});
        return count_with_preexisting(counter_, others_, columns, work, plan);
    }

    void close() override {
        others_.close();
        counter_.close();
    }

  private:
    struct Entry {
        EventSelector selector;
        counting::ResolvedEvent resolved;
        std::size_t position = 0;  // index among the specs handed to the counter
        bool counting = false;
        std::string reason;
        std::string remedy;
    };

    catalog::MetricDescriptor describe(const Entry& e) const {
        catalog::MetricDescriptor d;
        d.name = e.selector.text;
        d.header = e.selector.text;
        d.format = catalog::Format::count;
        d.cls = catalog::MetricClass::diagnostic;
        d.source = std::string(source());
        d.available = e.counting;
        d.reason = e.counting ? "" : e.reason;
        return d;
    }

    void build_statuses() {
        std::size_t counting = 0;
        std::string members;
        for (const auto& e : entries_) {
            if (!e.counting) continue;
            ++counting;
            members += fmt::format("{}{} ({})", members.empty() ? "" : ", ", e.selector.text,
                                   e.resolved.encoding);
        }
        const std::string capability(source());
        if (counting == 0) {
            // Every column degrades: one line naming each reason once ("a, b: why; c: why").
            std::vector<std::pair<std::string, std::string>> by_reason;  // names, reason
            std::string remedy;
            for (const auto& e : entries_) {
                if (remedy.empty()) remedy = e.remedy;
                auto it = std::find_if(by_reason.begin(), by_reason.end(),
                                       [&](const auto& r) { return r.second == e.reason; });
                if (it == by_reason.end()) by_reason.emplace_back(e.selector.text, e.reason);
                else it->first += ", " + e.selector.text;
            }
            std::string reason;
            for (const auto& [names, why] : by_reason)
                reason += (reason.empty() ? "" : "; ") + names + ": " + why;
            statuses_.push_back({capability, State::unavailable, reason, remedy});
            return;
        }
        statuses_.push_back(
            {capability, counting == entries_.size() ? State::available : State::degraded,
             "own counting group: " + members + "; " + counting::scope_note(inherit_), ""});
        for (const auto& e : entries_) {
            if (e.counting) continue;
            statuses_.push_back({capability + ".event", State::unavailable,
                                 e.selector.text + ": " + e.reason, e.remedy});
        }
    }

    EventSelector::Family family_;
    bool twin_ = false;
    bool inherit_ = false;       // --perf-inherit: threads created after the open are counted too
    PreexistingThreads others_;  // under --perf-inherit: the threads alive at the open
    std::vector<Entry> entries_;
    std::vector<Status> statuses_;
    counting::EventCounter counter_;
};

}  // namespace

std::unique_ptr<CountingTier> make_event_tier(EventSelector::Family family) {
    return std::make_unique<EventTier>(family);
}

}  // namespace glint::engine
