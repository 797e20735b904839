#include "engine/environment/seen_warnings.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace glint::engine {

std::optional<std::string> seen_warnings_path() {
    const auto set = [](const char* name) -> std::optional<std::string> {
        const char* v = std::getenv(name);
        if (!v || !*v) return std::nullopt;
        return std::string(v);
    };
    if (auto dir = set("GLINT_STATE_DIR")) return *dir + "/environment-seen";
    if (auto dir = set("XDG_STATE_HOME")) return *dir + "/glint/environment-seen";
    if (auto home = set("HOME")) return *home + "/.local/state/glint/environment-seen";
    return std::nullopt;
}

std::vector<std::string> read_seen_checks(const std::string& path) {
    std::vector<std::string> checks;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) checks.push_back(line);
    return checks;
}

void remember_checks(const std::string& path, const std::vector<std::string>& checks) {
    std::vector<std::string> all = read_seen_checks(path);
    bool grew = false;
    for (const auto& c : checks)
        if (std::find(all.begin(), all.end(), c) == all.end()) {
            all.push_back(c);
            grew = true;
        }
    if (!grew) return;
    std::error_code ignored;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ignored);
    std::ofstream out(path, std::ios::trunc);
    for (const auto& c : all) out << c << '\n';
}

std::string brief_problem(const EnvironmentWarning& warning) {
    const std::string& p = warning.problem;
    return p.substr(0, std::min(p.find(": "), p.find(", ")));
}

std::vector<std::string> warning_lines(const std::vector<EnvironmentWarning>& warnings,
                                       const std::vector<std::string>& seen,
                                       const std::string& path) {
    std::vector<std::string> lines;
    std::string brief;
    for (const auto& w : warnings) {
        if (std::find(seen.begin(), seen.end(), w.check) == seen.end()) {
            lines.push_back(warning_line(w));
            continue;
        }
        brief += (brief.empty() ? "" : " · ") + brief_problem(w);
    }
    if (!brief.empty())
        lines.push_back("environment (said in full before): " + brief + " — in full: remove " +
                        path + "; none: --quiet-environment");
    return lines;
}

}  // namespace glint::engine
