#include "engine/profile/profile_notes.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "engine/profile/case_profile.hpp"
#include "engine/profile/sampling_choice.hpp"
#include "engine/profile/stacks.hpp"

namespace glint::engine::profile {
namespace {

ProfileNote counted(std::uint64_t n, std::string gist, std::string text, std::string figure) {
    return {std::move(text),        std::move(gist), std::move(figure),
            static_cast<double>(n), false,           false};
}

ProfileNote no_samples(const CaseProfile& p) {
    std::string why =
        p.counts.samples == 0
            ? fmt::format(
                  "the sampler ran for {} and samples {} (--profile=HZ higher or --profile-time=MS "
                  "longer)",
                  p.pass.times_ok
                      ? fmt::format("{:.3g} ms", static_cast<double>(p.pass.times.running_ns) / 1e6)
                      : std::string("an unknown time"),
                  describe_rate(p.spec))
            : fmt::format("all {} samples were of glint's own code or after(), dropped",
                          p.counts.samples);
    std::string text = "no samples of the case: " + why;
    return {text, text, "", std::numeric_limits<double>::quiet_NaN(), false, true};
}

std::string figure_text(double v, bool percent) {
    return fmt::format("{:.0f}{}", v, percent ? "%" : "");
}

}  // namespace

std::vector<ProfileNote> CaseProfile::notes() const {
    std::vector<ProfileNote> out;
    if (profile.samples() == 0) out.push_back(no_samples(*this));
    constexpr const char* kToggles = "(switching the sampler on and off, calling into the case)";
    if (dropped_glint)
        out.push_back(counted(
            dropped_glint, fmt::format("samples of glint's own code dropped {}", kToggles),
            fmt::format("{} samples of glint's own code dropped {}", dropped_glint, kToggles),
            "{} dropped"));
    if (pass.call_sampling == CallSampling::grouped)
        out.push_back(counted(
            dropped_after,
            "calls grouped between one enable and disable of the sampler: one pair costs more than "
            "after(), so toggling around each call would sample glint; samples of after() dropped",
            fmt::format(
                "calls grouped between one enable and disable of the sampler: one pair ({:.0f} ns) "
                "costs more than after() ({:.0f} ns), so toggling around each call would sample "
                "glint; {} samples of after() dropped",
                pass.toggle_ns, pass.after_ns, dropped_after),
            "{} of after() dropped"));
    constexpr const char* kKernel =
        "which user-mode sampling does not see (the sampler's own enable/disable "
        "system calls included)";
    const double kernel = kernel_share();
    if (std::isfinite(kernel) && kernel >= kKernelNote)
        out.push_back({fmt::format("{:.0f}% of the sampled CPU time was in the kernel, {}",
                                   kernel * 100, kKernel),
                       fmt::format("part of the sampled CPU time was in the kernel, {}", kKernel),
                       "{} in the kernel", kernel * 100, true, false});
    if (counts.samples < limits.samples && pass.time_bound)
        out.push_back(counted(
            counts.samples,
            fmt::format(
                "fewer than the {} samples asked for: the time bound ({:g} ms) ended the pass "
                "(--profile-time=MS samples longer)",
                limits.samples, limits.time_ns / 1e6),
            fmt::format(
                "only {} of the {} samples asked for: the time bound ({:g} ms) ended the pass "
                "(--profile-time=MS samples longer)",
                counts.samples, limits.samples, limits.time_ns / 1e6),
            "{} samples"));
    constexpr const char* kFramePointers =
        "its code lacks frame pointers (build it with -fno-omit-frame-pointer "
        "-mno-omit-leaf-frame-pointer); inclusive shares omitted";
    const double complete = complete_fraction();
    if (std::isfinite(complete) && complete < kCompleteForInclusive)
        out.push_back({fmt::format("{:.0f}% of stacks reach the case's entry: {}", complete * 100,
                                   kFramePointers),
                       fmt::format("stacks do not reach the case's entry: {}", kFramePointers),
                       "{} of stacks complete", complete * 100, true, false});
    if (counts.lost)
        out.push_back(counted(
            counts.lost, "samples lost: the ring buffer was full between drains",
            fmt::format("{} samples lost: the ring buffer was full between drains", counts.lost),
            "{} lost"));
    constexpr const char* kThrottled =
        "the kernel lowered the sample rate (kernel.perf_cpu_time_max_percent)";
    if (counts.throttled)
        out.push_back(counted(counts.throttled, fmt::format("throttled: {}", kThrottled),
                              fmt::format("throttled {} times: {}", counts.throttled, kThrottled),
                              "{} times"));
    if (counts.malformed)
        out.push_back(
            counted(counts.malformed, "unparseable ring records: the rest of those drains dropped",
                    fmt::format("{} unparseable ring records: the rest of those drains dropped",
                                counts.malformed),
                    "{} records"));
    for (const auto& m : modules)
        if (!m.note.empty()) {
            std::string text = fmt::format("{}: {}", module_basename(m.path), m.note);
            out.push_back({text, text, "", std::numeric_limits<double>::quiet_NaN(), false, false});
        }
    return out;
}

NoteTally::Entry& NoteTally::entry(const std::string& gist) {
    for (auto& e : entries_)
        if (e.gist == gist) return e;
    entries_.push_back(Entry{gist, {}, false, {}});
    return entries_.back();
}

void NoteTally::add(const std::string& case_name, const std::vector<ProfileNote>& notes) {
    cases_.insert(case_name);
    for (const auto& n : notes) {
        if (n.own_line) continue;
        Entry& e = entry(n.gist);
        e.cases.insert(case_name);
        e.figure = n.figure;
        e.percent = n.percent;
        if (std::isfinite(n.value)) {
            e.low = std::min(e.low, n.value);
            e.high = std::max(e.high, n.value);
        }
    }
}

std::vector<std::string> NoteTally::lines() const {
    std::vector<std::string> out;
    for (const auto& e : entries_) {
        std::string which = e.cases.size() == cases_.size()
                                ? (cases_.size() == 1 ? std::string("the case")
                                                      : fmt::format("all {} cases", cases_.size()))
                                : fmt::format("{} of {} cases", e.cases.size(), cases_.size());
        if (!e.figure.empty() && e.low <= e.high) {
            std::string range = figure_text(e.high, e.percent);  // "41%", or "12–41%"
            if (figure_text(e.low, e.percent) != range)
                range = figure_text(e.low, false) + "–" + range;
            which += "; " + fmt::format(fmt::runtime(e.figure), range);
        }
        out.push_back(fmt::format("profile note ({}): {}", which, e.gist));
    }
    return out;
}

Json NoteTally::to_json() const {
    Json j = Json::object();
    Json cases = Json::array();
    for (const auto& c : cases_) cases.push_back(c);
    j["cases"] = std::move(cases);
    Json entries = Json::array();
    for (const auto& e : entries_) {
        Json k = Json::object();
        k["gist"] = e.gist;
        k["figure"] = e.figure;
        k["percent"] = e.percent;
        Json of = Json::array();
        for (const auto& c : e.cases) of.push_back(c);
        k["cases"] = std::move(of);
        k["low"] = std::isfinite(e.low) ? Json(e.low) : Json();
        k["high"] = std::isfinite(e.high) ? Json(e.high) : Json();
        entries.push_back(std::move(k));
    }
    j["notes"] = std::move(entries);
    return j;
}

void NoteTally::merge(const Json& handed) {
    const Json* cases = handed.is_object() ? handed.find("cases") : nullptr;
    const Json* notes = handed.is_object() ? handed.find("notes") : nullptr;
    if (!cases || !cases->is_array() || !notes || !notes->is_array()) return;
    for (const Json& c : cases->as_array())
        if (c.is_string()) cases_.insert(c.as_string());
    for (const Json& n : notes->as_array()) {
        const Json* gist = n.find("gist");
        const Json* of = n.find("cases");
        if (!gist || !gist->is_string() || !of || !of->is_array()) continue;
        Entry& e = entry(gist->as_string());
        if (const Json* f = n.find("figure"); f && f->is_string()) e.figure = f->as_string();
        if (const Json* p = n.find("percent"); p && p->is_bool()) e.percent = p->as_bool();
        for (const Json& c : of->as_array())
            if (c.is_string()) e.cases.insert(c.as_string());
        if (const Json* v = n.find("low"); v && v->is_number())
            e.low = std::min(e.low, v->as_number());
        if (const Json* v = n.find("high"); v && v->is_number())
            e.high = std::max(e.high, v->as_number());
    }
}

}  // namespace glint::engine::profile
