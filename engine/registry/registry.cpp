#include "engine/registry/registry.hpp"

#include <algorithm>

namespace glint::engine {
namespace {

std::vector<Registration>& mutable_registrations() {
    static std::vector<Registration> all;  // function-local: safe during static initialisation
    return all;
}

std::vector<std::string>& mutable_provenance() {
    static std::vector<std::string> lines;
    return lines;
}

}  // namespace

const std::vector<Registration>& registrations() { return mutable_registrations(); }
const std::vector<std::string>& provenance_lines() { return mutable_provenance(); }

bool add_provenance(std::string_view line) {
    auto& lines = mutable_provenance();
    if (std::find(lines.begin(), lines.end(), line) != lines.end()) return false;
    lines.emplace_back(line);
    return true;
}

}  // namespace glint::engine

namespace glint::detail {

void Registration::add(const char* name, void (*body)(), Batch whole_body, BuildFlags flags,
                       const char* file, int line, RegistrationOptions options) {
    engine::Registration r;
    r.name = name;
    r.body = body;
    r.whole_body = whole_body;
    r.flags = flags;
    r.file = file;
    r.line = line;
    r.pinned_iterations = options.pinned;
    r.metrics = std::move(options.metrics);
    r.params = std::move(options.params);
    r.complexity = std::move(options.complexity);
    engine::mutable_registrations().push_back(std::move(r));
}

}  // namespace glint::detail
