#include "engine/runner/isolation/isolated_run.hpp"

#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "engine/model/json_limits.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/registry/params.hpp"
#include "engine/registry/registry.hpp"
#include "engine/report/json_rows.hpp"
#include "engine/runner/bench/grouping.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/runner/isolation/wire.hpp"
#include "engine/runner/session.hpp"
#include "engine/tiers/registry.hpp"
#include "engine/tiers/tier_set.hpp"
#include "os/process.hpp"

namespace glint::engine {
namespace {

class NullTable final : public TableReporter {
  public:
    void header(const std::vector<std::string>&) override {}
    void begin_group(const GroupInfo&) override {}
    void case_started(const std::string&) override {}
    void case_finished(const Row&) override {}
    void end_group() override {}
};

// Runs a registration body with glint::iter skipped and bench_case calls recorded, keeping
// the `index`-th bench_case (its code included).
class PickCase final : public Session {
  public:
    explicit PickCase(std::size_t index) : index_(index) {}
    void on_iter(glint::detail::Batch, const glint::detail::IterOptions&) override {}
    void on_case(glint::CaseInfo info, std::unique_ptr<glint::detail::PerCall> body) override {
        if (seen_++ == index_)
            picked_ = DeferredCase{"", std::move(info), std::move(body), index_, 0, nullptr};
    }
    void on_provenance(std::string_view line) override { add_provenance(line); }
    std::optional<DeferredCase> picked_;

  private:
    std::size_t index_;
    std::size_t seen_ = 0;
};

// Names that crossed the wire (JSON) spell invalid UTF-8 as U+FFFD: compare them so.
bool same_name(const std::string& a, const std::string& b) {
    return sanitize::valid_utf8(a) == sanitize::valid_utf8(b);
}

std::string child_failure(const os::ChildOutcome& outcome, double timeout_s) {
    switch (outcome.end) {
        case os::ChildOutcome::End::signaled:
            return "killed by " + os::signal_name(outcome.signal);
        case os::ChildOutcome::End::timed_out:
            return fmt::format("timeout after {:g} s", timeout_s);
        case os::ChildOutcome::End::not_started:
            return "cannot run in a child process: " + outcome.problem;
        case os::ChildOutcome::End::abandoned:
            return "stopped";
        case os::ChildOutcome::End::exited:
            break;
    }
    if (outcome.exit_code == kChildLostPipeExit)
        return "the case closed glint's pipe to the runner (its results could not be sent)";
    return fmt::format("exit({}) inside the case", outcome.exit_code);
}

void send_provenance(ChildStream& stream) {
    for (const auto& line : provenance_lines()) stream.send("provenance", line);
}

// A child dying by the signals an interrupted terminal sends to its whole process group:
// wait a moment for the parent's own handler to record it.
bool parent_interrupted_too(const std::function<int()>& stop_signal) {
    for (int i = 0; i < 20 && stop_signal && stop_signal() == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    return stop_signal && stop_signal() != 0;
}

}  // namespace

struct Isolation::Child {
    std::string display;    // the parent's name for the case in flight
    std::string in_flight;  // the child's case in flight ("" between cases)
    bool ended = false;
    std::function<std::string(const std::string&)> display_of;
    Labels labels;  // the labels of what the child runs (its rows carry their own)
};

Isolation::Isolation(const CaseRun& cases, const Measuring& measuring, const TierRequest& request,
                     Settings settings)
    : cases_(cases), measuring_(measuring), request_(request), settings_(std::move(settings)) {}

std::optional<std::string> Isolation::run_child(CaseSink& run, const Columns& columns,
                                                const std::function<void(int fd)>& child_main,
                                                Child& received) {
    os::ChildWatch watch;
    watch.timeout_s = settings_.timeout_s;
    watch.on_line = [&](std::string_view text) {
        Json line;
        try {
            line = Json::parse(text);
        } catch (const std::exception&) {
            return;  // not a line of ours: ignored
        }
        if (const Json* c = line.find("case"); c && c->is_string()) {
            if (c->as_string() == received.in_flight) return;
            received.in_flight = c->as_string();
            run.case_started(received.in_flight, received.labels,
                             received.display_of(received.in_flight));
        } else if (const Json* r = line.find("row")) {
            Row row = row_from_json(*r, columns);
            const std::string display = received.display_of(row.name);
            received.in_flight.clear();
            run.row_finished(std::move(row), display);
        } else if (const Json* d = line.find("deferred")) {
            run.case_deferred(deferred_from_json(*d));
        } else if (const Json* m = line.find("metrics")) {
            run.client_metrics(metrics_from_json(*m));
        } else if (const Json* p = line.find("provenance"); p && p->is_string()) {
            add_provenance(p->as_string());
        } else if (const Json* a = line.find("after"); a && a->is_string()) {
            run.after_table(a->as_string());
        } else if (const Json* t = line.find("tiers")) {
            run.handed_back(*t);
        } else if (line.contains("end")) {
            received.ended = true;
        }
    };
    watch.tick = [&] {
        if (settings_.progress) settings_.progress();
        return settings_.stop_signal && settings_.stop_signal() != 0;
    };
    const os::ChildOutcome outcome = os::run_child(child_main, watch);
    using End = os::ChildOutcome::End;
    if (outcome.end == End::exited && received.ended && outcome.exit_code == 0) return std::nullopt;
    if (outcome.end == End::abandoned)
        throw Interrupted{settings_.stop_signal ? settings_.stop_signal() : 0};
    if (outcome.end == End::signaled && os::is_interrupt_signal(outcome.signal) &&
        parent_interrupted_too(settings_.stop_signal))
        throw Interrupted{settings_.stop_signal()};
    return child_failure(outcome, settings_.timeout_s);
}

void Isolation::run_body(CaseSink& run, const Columns& columns, const BodyRun& body) {
    const Registration& registration = body.registration;
    Child received;
    // Phase 1 rows are named by their path and carry the body run's labels.
    received.display_of = [&](const std::string& name) {
        return display_name(registration.name, name, body.labels);
    };
    received.labels = body.labels;
    run.case_started(registration.name, received.labels, received.display_of(registration.name));
    received.in_flight = registration.name;
    const CaseRun& cases = cases_;
    const Measuring& measuring = measuring_;
    const TierRequest& request = request_;
    auto child_main = [&](int fd) {
        TierSet tiers;
        tiers.open(request, make_tiers());
        NullTable table;
        ChildStream stream(fd);
        BenchRun child(cases, measuring, table, tiers);
        child.observe(&stream);
        child.run_registration_alone(body);  // under the parent's ParamScope, forked with it
        send_provenance(stream);
        child.hand_over(stream);
        stream.send("end", true);
    };
    if (auto failure = run_child(run, columns, child_main, received)) {
        const std::string name =
            received.in_flight.empty() ? registration.name : received.in_flight;
        run.case_failed({registration.name, name, body.labels, &registration.metrics,
                         received.display_of(name)},
                        *failure);
    }
}

void Isolation::run_case(CaseSink& run, const Columns& columns, const DeferredCase& d,
                         const std::string& display) {
    const Registration* registration = nullptr;
    for (const auto& r : registrations())
        if (same_name(r.name, d.registration)) registration = &r;
    Child received;
    received.display_of = [&](const std::string&) { return display; };
    received.labels = sorted_labels(d.info.labels);
    run.case_started(d.info.name, received.labels, display);
    received.in_flight = d.info.name;
    const CaseRun& cases = cases_;
    const Measuring& measuring = measuring_;
    const TierRequest& request = request_;
    auto child_main = [&](int fd) {
        ChildStream stream(fd);
        TierSet tiers;
        tiers.open(request, make_tiers());
        PickCase pick(d.index);
        {
            // The body runs again for the case's parameter combination.
            const std::vector<ParamInstance> all =
                registration ? instances(*registration) : std::vector<ParamInstance>{};
            const ParamInstance none;
            ParamScope params(d.instance < all.size() ? all[d.instance] : none);
            SessionScope scope(pick);
            try {
                if (registration) registration->body();
            } catch (...) {
                // The body failed in phase 1 too (reported there); a case it registered before
                // failing can still be measured.
            }
        }
        send_provenance(stream);
        if (!pick.picked_ || !same_name(pick.picked_->info.name, d.info.name)) {
            Row row;
            row.name = d.info.name;
            row.labels = sorted_labels(d.info.labels);
            row.error =
                "its registration body did not register it again in the child process "
                "(a body must register the same cases on every run)";
            stream.row_finished(row);
            stream.send("end", true);
            return;
        }
        pick.picked_->registration = d.registration;
        pick.picked_->instance = d.instance;
        pick.picked_->info.labels = d.info.labels;    // the parameters' included
        pick.picked_->info.metrics = d.info.metrics;  // resolved against them
        NullTable table;
        BenchRun child(cases, measuring, table, tiers);
        child.observe(&stream);
        child.run_deferred_alone(*pick.picked_);
        child.hand_over(stream);
        stream.send("end", true);
    };
    if (auto failure = run_child(run, columns, child_main, received))
        run.case_failed(
            {d.registration, d.info.name, sorted_labels(d.info.labels), &d.info.metrics, display},
            *failure);
}

namespace {

// The child's end of a plain run: each case's start and end, as lines.
class PlainStream final : public PlainListener {
  public:
    PlainStream(int fd, std::string registration)
        : stream_(fd), registration_(std::move(registration)) {}
    void started(const std::string& name) override { stream_.send("case", name); }
    void ended(bool passed) override { stream_.send(passed ? "passed" : "failed", true); }
    bool defer(const glint::CaseInfo& info, std::size_t index) override {
        stream_.send("deferred", deferred_json(registration_, index, info, 0));
        return true;
    }
    ChildStream stream_;

  private:
    std::string registration_;
};

}  // namespace

// One child of a plain isolated run: its lines counted, its death a FAIL line for the case in
// flight (`in_flight` to start with).
void run_plain_child(const CaseRun& cases, std::string in_flight, PlainCounts& total,
                     std::vector<DeferredCase>* deferred,
                     const std::function<void(PlainStream&)>& work,
                     const std::string& registration) {
    bool ended = false;
    os::ChildWatch watch;
    watch.timeout_s = cases.case_timeout_s;
    watch.on_line = [&](std::string_view text) {
        try {
            const Json line = Json::parse(text);
            if (const Json* c = line.find("case"); c && c->is_string()) in_flight = c->as_string();
            if (line.contains("passed")) ++total.passed;
            if (line.contains("failed")) ++total.failed;
            if (const Json* d = line.find("deferred"); d && deferred)
                deferred->push_back(deferred_from_json(*d));
            if (line.contains("end")) ended = true;
        } catch (const std::exception&) {}
    };
    const os::ChildOutcome outcome = os::run_child(
        [&](int fd) {
            PlainStream stream(fd, registration);
            work(stream);
            stream.stream_.send("end", true);
        },
        watch);
    if (ended && outcome.end == os::ChildOutcome::End::exited && outcome.exit_code == 0) return;
    const std::string why = child_failure(outcome, cases.case_timeout_s);
    ++total.failed;
    print_plain_result(in_flight, &why);
}

PlainCounts run_plain_isolated(const CaseRun& selected) {
    PlainCounts total;
    // One child per body run (the children fork under its ParamScope), then one per bench_case.
    for_each_body_run(CaseFilter::parse(selected.filter), [&](const BodyRun& run) {
        const Registration& r = run.registration;
        std::vector<DeferredCase> cases;
        run_plain_child(
            selected, display_name(r.name, r.name, run.labels), total, &cases,
            [&](PlainStream& stream) { run_plain_cases(selected, &run, &stream); }, r.name);
        for (const DeferredCase& d : cases) {
            const std::string full = display_name(r.name, d.info.name, d.info.labels);
            run_plain_child(
                selected, full, total, nullptr,
                [&](PlainStream& stream) {
                    PickCase pick(d.index);
                    {
                        SessionScope scope(pick);
                        try {
                            r.body();
                        } catch (...) {}
                    }
                    stream.started(full);
                    std::string failure;
                    if (!pick.picked_ || !same_name(pick.picked_->info.name, d.info.name)) {
                        failure =
                            "its registration body did not register it again in the child process";
                    } else {
                        try {
                            run_case_once(pick.picked_->info, *pick.picked_->body);
                        } catch (...) {
                            failure = describe_failure(std::current_exception());
                        }
                    }
                    stream.ended(failure.empty());
                    print_plain_result(full, failure.empty() ? nullptr : &failure);
                },
                r.name);
        }
    });
    return total;
}

std::optional<std::vector<DiscoveredCase>> discover_in_child(const CaseRun& selected,
                                                             double timeout_s,
                                                             std::string& problem) {
    std::vector<DiscoveredCase> found;
    bool ended = false;
    os::ChildWatch watch;
    watch.timeout_s = timeout_s;
    watch.on_line = [&](std::string_view text) {
        try {
            const Json line = Json::parse(text);
            if (const Json* d = line.find("deferred")) {
                DeferredCase c = deferred_from_json(*d);  // and the case's path and kind
                const Json* path = d->find("path");
                const Json* kind = d->find("kind");
                if (!path || !path->is_string() || !kind || !kind->is_number()) return;
                found.push_back(
                    {c.registration, c.info.name, path->as_string(),
                     static_cast<DiscoveredCase::Kind>(json_integer<int>(kind->as_number())),
                     sorted_labels(c.info.labels), c.info.metrics});
            } else if (line.contains("end")) {
                ended = true;
            }
        } catch (const std::exception&) {}
    };
    const os::ChildOutcome outcome = os::run_child(
        [&](int fd) {
            ChildStream stream(fd);
            for (const auto& c : discover_cases(selected)) {
                glint::CaseInfo info;
                info.name = c.name;
                info.labels = c.labels;
                info.metrics = c.metrics;
                Json line = deferred_json(c.registration, 0, info, 0);
                line["path"] = c.path;
                line["kind"] = static_cast<int>(c.kind);
                stream.send("deferred", std::move(line));
            }
            stream.send("end", true);
        },
        watch);
    if (ended && outcome.end == os::ChildOutcome::End::exited && outcome.exit_code == 0)
        return found;
    problem = child_failure(outcome, timeout_s);
    return std::nullopt;
}

}  // namespace glint::engine
