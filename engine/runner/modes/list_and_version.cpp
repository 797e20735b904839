#include "engine/runner/modes/list_and_version.hpp"

#include <glint/version.hpp>

#include <cstdio>

#include "engine/model/json.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/report/json_report.hpp"
#include "engine/report/text.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/runner/modes/plain_run.hpp"

namespace glint::engine {
namespace {

const char* kind_name(DiscoveredCase::Kind kind) {
    switch (kind) {
        case DiscoveredCase::Kind::body:
            return "body";
        case DiscoveredCase::Kind::iter:
            return "iter";
        case DiscoveredCase::Kind::bench_case:
            return "bench_case";
    }
    return "body";
}

}  // namespace

int print_case_list(const CaseRun& selected, bool json) {
    const std::vector<DiscoveredCase> cases = discover_cases(selected);
    std::vector<std::string> shown;  // each case's display name (model/row.hpp)
    for (const auto& c : cases)
        shown.push_back(display_name(c.registration,
                                     c.kind == DiscoveredCase::Kind::bench_case ? c.name : c.path,
                                     c.labels));
    std::vector<std::string_view> names;
    for (const auto& c : cases) names.push_back(c.path);
    if (const std::string note = sanitize::invalid_utf8_note(names); !note.empty())
        report::print_wrapped(stderr, "glint: note: " + note);
    if (!json) {
        for (const auto& name : shown) std::printf("%s\n", sanitize::terminal(name).c_str());
        return 0;
    }
    Json doc = Json::object();
    doc["glint"] = GLINT_VERSION_STRING;
    Json list = Json::array();
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const DiscoveredCase& c = cases[i];
        Json j = Json::object();
        j["path"] = c.path;
        j["registration"] = c.registration;
        // The row's name in --bench-json: the case's for a bench_case, the path otherwise.
        j["name"] = c.kind == DiscoveredCase::Kind::bench_case ? c.name : c.path;
        j["kind"] = kind_name(c.kind);
        j["labels"] = labels_json(c.labels);
        j["displayName"] = shown[i];
        list.push_back(std::move(j));
    }
    doc["cases"] = std::move(list);
    std::printf("%s\n", doc.dump().c_str());
    return 0;
}

int print_version() {
    std::printf("glint %s\n", GLINT_VERSION_STRING);
    return 0;
}

}  // namespace glint::engine
