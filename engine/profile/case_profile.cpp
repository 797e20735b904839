#include "engine/profile/case_profile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "engine/model/json_values.hpp"
#include "engine/model/not_measured.hpp"
#include "engine/profile/function_name.hpp"
#include "engine/profile/sampling_choice.hpp"
#include "engine/profile/stacks.hpp"

namespace glint::engine::profile {
namespace {

constexpr std::size_t kRowWidth = 100;   // a row of the flat profile fits the piped width
constexpr std::size_t kRowFigures = 32;  // "  " and self, ±, samples, incl with their gaps
constexpr std::size_t kMinNameWidth = 24;

std::string location(const FunctionShare& f) {
    if (f.line != 0) return fmt::format("{}:{}", module_basename(f.file), f.line);
    return module_basename(f.name.module);
}

// The function column's width in a row of the flat profile: what is left of kRowWidth beside
// the figures (kRowFigures), the location and the [inlined] mark, kMinNameWidth at least.
std::size_t name_width(std::string_view where, bool inlined) {
    const std::size_t used = kRowFigures + 2 + code_points(where) + (inlined ? 10 : 0);
    return std::max(kMinNameWidth, used < kRowWidth ? kRowWidth - used : 0);
}

}  // namespace

double CaseProfile::rate_hz() const {
    if (!pass.times_ok || pass.times.running_ns == 0) return kNan;
    return static_cast<double>(counts.samples) * 1e9 / static_cast<double>(pass.times.running_ns);
}

double CaseProfile::complete_fraction() const {
    if (profile.samples() == 0) return kNan;
    return static_cast<double>(profile.complete()) / static_cast<double>(profile.samples());
}

double CaseProfile::kernel_share() const {
    if (!os::is_timer(spec.event) || spec.period == 0 || !pass.times_ok || pass.times.count == 0 ||
        counts.samples == 0)
        return kNan;
    const double sampled = static_cast<double>((counts.samples + counts.lost) * spec.period);
    return std::max(0.0, 1.0 - sampled / static_cast<double>(pass.times.count));
}

std::vector<std::string> profile_lines(const CaseProfile& p) {
    std::vector<std::string> lines;
    const double rate = p.rate_hz();
    const double complete = p.complete_fraction();
    lines.push_back(fmt::format(
        "profile {}: {} samples, {} {}, {} achieved, pass {:.0f} ms; lost {}, throttled {}; "
        "stacks complete {}",
        p.name, p.profile.samples(), os::sample_event_name(p.spec.event), describe_rate(p.spec),
        std::isfinite(rate) ? fmt::format("{:.0f} Hz", rate) : std::string("—"),
        static_cast<double>(p.pass.wall_ns) / 1e6, p.counts.lost, p.counts.throttled,
        std::isfinite(complete) ? fmt::format("{:.1f}%", complete * 100) : std::string("—")));
    const bool inclusive = std::isfinite(complete) && complete >= kCompleteForInclusive;
    const std::vector<FunctionShare> functions = p.profile.functions();
    if (!functions.empty())
        lines.push_back(fmt::format("  {:>6} {:>6} {:>7} {:>6}  {}", "self", "±", "samples", "incl",
                                    "function"));
    std::size_t shown = 0;
    std::uint64_t rest = 0;
    for (const FunctionShare& f : functions) {
        if (f.self == 0) continue;
        if (shown == kTopText) {
            rest += f.self;
            continue;
        }
        ++shown;
        const std::string where = location(f);
        lines.push_back(fmt::format(
            "  {:>5.1f}% {:>5.1f}% {:>7} {:>6}  {}{}  {}", f.self_share * 100, f.self_error * 100,
            f.self, inclusive ? fmt::format("{:.1f}%", f.inclusive_share * 100) : std::string("—"),
            shorten_function_name(f.name.function, name_width(where, f.name.inlined)),
            f.name.inlined ? " [inlined]" : "", where));
    }
    if (rest)
        lines.push_back(fmt::format(
            "  {:>5.1f}% {:>14} {:>6}  (other functions)",
            100.0 * static_cast<double>(rest) / static_cast<double>(p.profile.samples()), rest,
            ""));
    for (const auto& n : p.notes())  // the rest are the run's (NoteTally), printed once
        if (n.own_line) lines.push_back("  note: " + n.text);
    return lines;
}

Json profile_json(const CaseProfile& p) {
    Json out = Json::object();
    out["event"] = std::string(os::sample_event_name(p.spec.event));
    out["period"] = p.spec.period ? Json(p.spec.period) : Json();
    out["frequencyHz"] = p.spec.period ? Json() : Json(p.spec.frequency);
    out["userOnly"] = p.spec.exclude_kernel;
    out["preciseIp"] = static_cast<unsigned>(p.spec.precise_ip);
    out["samples"] = p.profile.samples();
    out["droppedGlintSamples"] = p.dropped_glint;
    out["droppedAfterSamples"] = p.dropped_after;
    out["callSampling"] =
        std::isnan(p.pass.toggle_ns)  // measured in per-call passes only
            ? Json()
            : Json(std::string(p.pass.call_sampling == CallSampling::grouped ? "grouped"
                                                                             : "each call"));
    out["requestedSamples"] = p.limits.samples;
    out["lost"] = p.counts.lost;
    out["throttled"] = p.counts.throttled;
    out["unthrottled"] = p.counts.unthrottled;
    out["malformed"] = p.counts.malformed;
    out["rateHz"] = number_or_null(p.rate_hz());
    out["passNs"] = p.pass.wall_ns;
    out["sampledNs"] = p.pass.times_ok ? Json(p.pass.times.running_ns) : Json();
    out["iterations"] = p.pass.iterations;
    out["timeBound"] = p.pass.time_bound;
    out["completeStacks"] = number_or_null(p.complete_fraction());
    out["kernelShare"] = number_or_null(p.kernel_share());
    Json functions = Json::array();
    const bool inclusive = p.complete_fraction() >= kCompleteForInclusive;
    std::size_t n = 0;
    for (const FunctionShare& f : p.profile.functions()) {
        if (n++ == kTopJson) break;
        Json j = Json::object();
        j["function"] = f.name.function;
        j["module"] = f.name.module;
        j["inlined"] = f.name.inlined;
        j["file"] = f.line ? Json(f.file) : Json();
        j["line"] = f.line ? Json(f.line) : Json();
        j["self"] = f.self;
        j["selfShare"] = f.self_share;
        j["selfShareError"] = f.self_error;
        j["inclusive"] = f.inclusive;
        j["inclusiveShare"] = inclusive ? Json(f.inclusive_share) : Json();
        functions.push_back(std::move(j));
    }
    out["functions"] = std::move(functions);
    Json folded = Json::array();
    std::uint64_t rest = 0;
    std::size_t k = 0;
    auto stacks = p.profile.folded("");
    std::stable_sort(stacks.begin(), stacks.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [stack, count] : stacks) {
        if (k++ >= kMaxStacks) {
            rest += count;
            continue;
        }
        Json s = Json::object();
        s["stack"] = stack;
        s["samples"] = count;
        folded.push_back(std::move(s));
    }
    if (rest) {
        Json s = Json::object();
        s["stack"] = "[other stacks]";
        s["samples"] = rest;
        folded.push_back(std::move(s));
    }
    out["folded"] = std::move(folded);
    Json notes = Json::array();
    for (auto& note : p.notes()) notes.push_back(std::move(note.text));
    out["notes"] = std::move(notes);
    return out;
}

std::vector<std::string> folded_lines(const CaseProfile& p) {
    std::vector<std::string> out;
    for (const auto& [stack, count] : p.profile.folded(p.name))
        out.push_back(fmt::format("{} {}", stack, count));
    return out;
}

}  // namespace glint::engine::profile
