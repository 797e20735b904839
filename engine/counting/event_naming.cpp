// How raw: and pfm: selectors become perf event encodings (see event_naming.hpp).
#include "engine/counting/event_naming.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "os/pfm.hpp"

namespace glint::engine::counting {
namespace {

using catalog::EventSelector;
using catalog::Privilege;

std::string encoding_text(const os::EventSpec& e) {
    std::string text = e.type == os::kRawEventType
                           ? fmt::format("PERF_TYPE_RAW config {:#x}", e.config)
                           : fmt::format("type {} config {:#x}", e.type, e.config);
    if (e.config1 != 0) text += fmt::format(" config1 {:#x}", e.config1);
    if (e.config2 != 0) text += fmt::format(" config2 {:#x}", e.config2);
    if (e.exclude_kernel) text += " (user only)";
    if (e.exclude_user) text += " (kernel only)";
    return text;
}

// libpfm's fully qualified name without its attribute list: "skl::INST_RETIRED:ANY_P:e=0:i=0:
// ...:u=1:k=1" -> "skl::INST_RETIRED:ANY_P".
std::string short_name(const std::string& qualified) {
    std::string out;
    std::size_t start = 0;
    if (const auto pmu = qualified.find("::"); pmu != std::string::npos) {
        out = qualified.substr(0, pmu + 2);
        start = pmu + 2;
    }
    bool first = true;
    while (start <= qualified.size()) {
        const std::size_t colon = std::min(qualified.find(':', start), qualified.size());
        const std::string part = qualified.substr(start, colon - start);
        if (part.find('=') == std::string::npos) {
            out += (first ? "" : ":") + part;
            first = false;
        }
        start = colon + 1;
    }
    return out;
}

std::string library_absent_reason(const os::PfmLibrary& library) {
    // Off Linux (!supported) nothing counts, so nothing "still works".
    return fmt::format(
        "{} cannot be loaded ({}): pfm: selectors cannot resolve names{}", library.soname,
        library.error,
        library.supported ? "; raw: selectors and the generic events still work" : "");
}

std::string library_remedy(const os::PfmLibrary& library) {
    return library.supported ? "apt-get install libpfm4" : "";
}

}  // namespace

ResolvedEvent resolve_event(const EventSelector& selector) {
    ResolvedEvent r;
    r.spec.name = selector.text;
    const bool user = selector.privilege != Privilege::kernel_only;
    const bool kernel = selector.privilege != Privilege::user_only;
    if (selector.family == EventSelector::Family::raw) {
        r.ok = true;
        r.spec.type = os::kRawEventType;
        r.spec.config = selector.config;
        r.spec.exclude_user = !user;
        r.spec.exclude_kernel = !kernel;
        r.encoding = encoding_text(r.spec);
        return r;
    }
    const os::PfmEncoding e = os::pfm_encode(selector.event, user, kernel);
    switch (e.outcome) {
        case os::PfmEncoding::Outcome::encoded:
            r.ok = true;
            r.spec = e.event;
            r.spec.name = selector.text;
            r.encoding = fmt::format("{} = {}", short_name(e.qualified), encoding_text(r.spec));
            return r;
        case os::PfmEncoding::Outcome::library_absent:
            r.library_absent = true;
            r.reason = library_absent_reason(os::pfm_library());
            r.remedy = library_remedy(os::pfm_library());
            return r;
        case os::PfmEncoding::Outcome::unknown_event:
            r.reason = fmt::format("libpfm4 knows no event '{}' on the PMUs it detected here",
                                   selector.event);
            return r;
        case os::PfmEncoding::Outcome::invalid:
            r.reason = fmt::format("libpfm4 rejected '{}': {}", selector.event, e.error);
            return r;
        case os::PfmEncoding::Outcome::failed:
            break;
    }
    r.reason = fmt::format("libpfm4 could not encode '{}': {}", selector.event, e.error);
    return r;
}

std::vector<std::string> event_naming_lines() {
    std::vector<std::string> lines;
    lines.push_back(
        "raw:r<hex>[:u|:k]          a PERF_TYPE_RAW config (e.g. raw:r00c0), counted in a group "
        "of its own; needs no library");
    const os::PfmLibrary& library = os::pfm_library();
    if (library.loaded)
        lines.push_back(fmt::format(
            "pfm:EVENT[:UMASK][:u|:k]   a libpfm4 event name, counted in a group of its own: "
            "eventNaming present ({}, API {}.{})",
            library.soname, library.version >> 16, library.version & 0xffff));
    else
        lines.push_back(
            fmt::format("pfm:EVENT[:UMASK][:u|:k]   a libpfm4 event name, counted in a "
                        "group of its own: eventNaming absent: {}{}",
                        library_absent_reason(library),
                        library.supported ? " — remedy: apt-get install libpfm4" : ""));
    return lines;
}

}  // namespace glint::engine::counting
