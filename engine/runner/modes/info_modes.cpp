#include "engine/runner/modes/info_modes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "engine/counting/event_naming.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/registry/registry.hpp"
#include "engine/report/text.hpp"
#include "engine/runner/bench/grouping.hpp"
#include "engine/runner/modes/plain_run.hpp"
#include "engine/tiers/client_metrics.hpp"
#include "engine/tiers/syscalls/syscall_names.hpp"

namespace glint::engine {

int print_group_keys(const CaseRun& selected) {
    auto cases = discover_cases(selected);
    std::vector<const Labels*> labels;
    for (const auto& c : cases) labels.push_back(&c.labels);  // every kind of row, parameters too
    const auto keys = label_keys(labels);
    if (keys.empty()) {
        std::printf(
            "no label keys: the selected cases have no labels (neither bench_case labels nor "
            "parameters)\n");
        return 0;
    }
    for (const auto& k : keys) {
        std::vector<std::string> values;
        for (const auto* l : labels)
            for (const auto& [key, v] : *l)
                if (key == k && std::find(values.begin(), values.end(), v) == values.end())
                    values.push_back(v);
        std::string list;
        for (const auto& v : values) list += (list.empty() ? "" : ", ") + v;
        std::printf("%s\n", sanitize::terminal(k + ": " + list).c_str());
    }
    return 0;
}

int print_metric_listing(const CaseRun& cases, std::vector<catalog::MetricDescriptor> catalog) {
    for (const auto& r : registrations()) merge_client_family(catalog, r.metrics);
    for (const auto& c : discover_cases(cases)) merge_client_family(catalog, c.metrics);
    for (auto& d : catalog)  // a case's metric names, headers and units reach the terminal
        for (std::string* text : {&d.name, &d.header, &d.source, &d.reason})
            *text = sanitize::terminal(*text);
    std::size_t name_w = 4, header_w = 6, source_w = 6;
    for (const auto& d : catalog) {
        name_w = std::max(name_w, d.name.size());
        header_w = std::max(header_w, d.header.size());
        source_w = std::max(source_w, d.source.size());
    }
    std::printf("%s\n",
                fmt::format("{:<{}}  {:<{}}  {:<12}  {:<{}}  {:<8}  {}", "name", name_w, "header",
                            header_w, "class", "source", source_w, "default", "availability")
                    .c_str());
    for (const auto& d : catalog) {
        std::string availability = d.available ? "available" : "unavailable";
        if (!d.available && !d.reason.empty()) availability += ": " + d.reason;
        std::printf("%s\n", fmt::format("{:<{}}  {:<{}}  {:<12}  {:<{}}  {:<8}  {}", d.name, name_w,
                                        d.header, header_w, to_string(d.cls), d.source, source_w,
                                        d.is_default ? "yes" : "no", availability)
                                .c_str());
    }
    if (catalog.empty())
        std::printf(
            "(no metrics: this build has no counting tier and no case registers a metric)\n");
    std::printf("\nselector families (--metrics):\n");
    for (const auto& line : counting::event_naming_lines()) std::printf("  %s\n", line.c_str());
    std::printf("  %s\n", syscalls::selector_family_line().c_str());
    return 0;
}

int print_capabilities(const std::vector<Status>& capabilities) {
    // Each line wrapped to the terminal (100 columns piped), continued under the reason.
    const std::size_t width = report::wrap_width(stdout);
    const std::string indent(22 + 1 + 12 + 1 + 2, ' ');
    auto print = [&](const std::string& line) {
        for (const auto& part : report::wrap_to_width(line, width, indent))
            std::printf("%s\n", part.c_str());
    };
    for (const auto& s : capabilities) {
        print(fmt::format("{:<22} {:<12} {}", s.capability, to_string(s.state), s.reason));
        if (!s.remedy.empty()) print(fmt::format("{:<22} {:<12} remedy: {}", "", "", s.remedy));
    }
    return 0;
}

}  // namespace glint::engine
