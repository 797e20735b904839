#include "engine/profile/case_profile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "engine/profile/sampling_choice.hpp"
#include "engine/profile/stacks.hpp"

namespace glint::engine::profile {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kNameWidth = 64;

std::string location(const FunctionShare& f) {
    if (f.line != 0) return fmt::format("{}:{}", module_basename(f.file), f.line);
    return module_basename(f.name.module);
}

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Cut to `width` code points, the last one "…" when cut.
std::string clip(const std::string& s, std::size_t width) {
    std::size_t points = 0;
    for (char c : s) points += continuation(c) ? 0 : 1;
    if (points <= width) return s;
    points = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
        if (!continuation(s[i]) && ++points == width) return s.substr(0, i) + "…";
    return s;
}

Json number_or_null(double v) { return std::isfinite(v) ? Json(v) : Json(); }

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

std::vector<std::string> CaseProfile::notes() const {
    std::vector<std::string> out;
    if (profile.samples() == 0)
        out.push_back(fmt::format(
            "no samples of the case: {}", counts.samples == 0
                ? fmt::format("the sampler ran for {} and samples {} (--profile=HZ higher or "
                              "--profile-time=MS longer)",
                              pass.times_ok ? fmt::format("{:.3g} ms", static_cast<double>(
                                                                           pass.times.running_ns) / 1e6)
                                            : std::string("an unknown time"),
                              describe_rate(spec))
                : fmt::format("all {} samples were of glint's own code or after(), dropped",
                              counts.samples)));
    if (dropped_glint)
        out.push_back(fmt::format(
            "{} samples of glint's own code dropped (switching the sampler on and off, calling "
            "into the case)",
            dropped_glint));
    if (pass.call_sampling == CallSampling::grouped)
        out.push_back(fmt::format(
            "calls grouped between one enable and disable of the sampler: one pair ({:.0f} ns) "
            "costs more than after() ({:.0f} ns), so toggling around each call would sample "
            "glint; {} samples of after() dropped",
            pass.toggle_ns, pass.after_ns, dropped_after));
    const double kernel = kernel_share();
    if (std::isfinite(kernel) && kernel >= kKernelNote)
        out.push_back(fmt::format(
            "{:.0f}% of the sampled CPU time was in the kernel, which user-mode sampling does "
            "not see (the sampler's own enable/disable system calls included)",
            kernel * 100));
    if (counts.samples < limits.samples && pass.time_bound)
        out.push_back(fmt::format(
            "only {} of the {} samples asked for: the time bound ({:g} ms) ended the pass "
            "(--profile-time=MS samples longer)",
            counts.samples, limits.samples, limits.time_ns / 1e6));
    const double complete = complete_fraction();
    if (std::isfinite(complete) && complete < kCompleteForInclusive)
        out.push_back(fmt::format(
            "{:.0f}% of stacks reach the case's entry: its code lacks frame pointers (build it "
            "with -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer); inclusive shares omitted",
            complete * 100));
    if (counts.lost)
        out.push_back(fmt::format("{} samples lost: the ring buffer was full between drains",
                                  counts.lost));
    if (counts.throttled)
        out.push_back(fmt::format(
            "throttled {} times: the kernel lowered the sample rate (kernel.perf_cpu_time_max_percent)",
            counts.throttled));
    if (counts.malformed)
        out.push_back(fmt::format("{} unparseable ring records: the rest of those drains dropped",
                                  counts.malformed));
    for (const auto& m : modules)
        if (!m.note.empty()) out.push_back(fmt::format("{}: {}", module_basename(m.path), m.note));
    return out;
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
        lines.push_back(fmt::format("  {:>6} {:>6} {:>7} {:>6}  {}", "self", "±", "samples",
                                    "incl", "function"));
    std::size_t shown = 0;
    std::uint64_t rest = 0;
    for (const FunctionShare& f : functions) {
        if (f.self == 0) continue;
        if (shown == kTopText) {
            rest += f.self;
            continue;
        }
        ++shown;
        lines.push_back(fmt::format(
            "  {:>5.1f}% {:>5.1f}% {:>7} {:>6}  {}{}  {}", f.self_share * 100, f.self_error * 100,
            f.self, inclusive ? fmt::format("{:.1f}%", f.inclusive_share * 100) : std::string("—"),
            clip(f.name.function, kNameWidth), f.name.inlined ? " [inlined]" : "", location(f)));
    }
    if (rest)
        lines.push_back(fmt::format("  {:>5.1f}% {:>14} {:>6}  (other functions)",
                                    100.0 * static_cast<double>(rest) / static_cast<double>(p.profile.samples()),
                                    rest, ""));
    for (const auto& n : p.notes()) lines.push_back("  note: " + n);
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
    out["callSampling"] = std::isnan(p.pass.toggle_ns)  // measured in per-call passes only
                              ? Json()
                              : Json(std::string(p.pass.call_sampling == CallSampling::grouped
                                                                     ? "grouped"
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
    for (auto& note : p.notes()) notes.push_back(std::move(note));
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
