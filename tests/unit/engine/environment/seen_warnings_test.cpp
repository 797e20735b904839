// Environment warnings said in full once (engine/environment/seen_warnings.hpp): a terminal's
// second run says the checks it already showed in one brief line, new checks in full.
#include <doctest/doctest.h>

#include <stdlib.h>

#include <optional>
#include <string>
#include <vector>

#include "engine/environment/seen_warnings.hpp"
#include "support/temp_dir.hpp"

using namespace glint::engine;

namespace {

const std::vector<EnvironmentWarning> kWarnings = {
    {"pinning", "not pinned: the scheduler may move the run across CPUs 0-1", "--pin=auto"},
    {"load", "load average 15.57 at the start: other work competes for the CPUs", "a quieter one"},
    {"aslr", "ASLR is on: code and data addresses change run to run", "setarch -R"}};

}  // namespace

TEST_CASE("seen warnings: unseen checks in full, seen ones in one brief line naming the way back") {
    CHECK(brief_problem(kWarnings[1]) == "load average 15.57 at the start");
    auto lines = warning_lines(kWarnings, {}, "/s/environment-seen");
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] ==
          "environment: not pinned: the scheduler may move the run across CPUs 0-1 — "
          "--pin=auto");
    lines = warning_lines(kWarnings, {"pinning", "aslr"}, "/s/environment-seen");
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].rfind("environment: load average 15.57 at the start: other work", 0) == 0);
    CHECK(lines[1] ==
          "environment (said in full before): not pinned · ASLR is on — in full: "
          "remove /s/environment-seen; none: --quiet-environment");
    const EnvironmentWarning hypervisor{"hypervisor",
                                        "running under a hypervisor, which exposes no CPU PMU "
                                        "(software events only): other guests can take the CPU",
                                        ""};
    CHECK(brief_problem(hypervisor) == "running under a hypervisor");
}

TEST_CASE("seen warnings: the state file remembers checks across runs, its folder created") {
    glint::test::TempDir dir("glint_seen_warnings");
    const std::string path = dir.file("state/glint/environment-seen");
    CHECK(read_seen_checks(path).empty());  // a first run: nothing seen
    remember_checks(path, {"pinning", "load"});
    remember_checks(path, {"load", "aslr"});
    CHECK(read_seen_checks(path) == std::vector<std::string>{"pinning", "load", "aslr"});
    remember_checks(dir.file("file/under/a/file"), {"x"});  // best effort: no throw
}

TEST_CASE("seen warnings: the state file's place follows GLINT_STATE_DIR, XDG_STATE_HOME, HOME") {
    const auto saved = [](const char* name) {
        const char* v = ::getenv(name);
        return v ? std::optional<std::string>(v) : std::nullopt;
    };
    const auto glint_dir = saved("GLINT_STATE_DIR"), xdg = saved("XDG_STATE_HOME"),
               home = saved("HOME");
    ::setenv("GLINT_STATE_DIR", "/g", 1);
    ::setenv("XDG_STATE_HOME", "/x", 1);
    ::setenv("HOME", "/h", 1);
    CHECK(seen_warnings_path() == "/g/environment-seen");
    ::unsetenv("GLINT_STATE_DIR");
    CHECK(seen_warnings_path() == "/x/glint/environment-seen");
    ::setenv("XDG_STATE_HOME", "", 1);
    CHECK(seen_warnings_path() == "/h/.local/state/glint/environment-seen");
    ::unsetenv("HOME");
    CHECK_FALSE(seen_warnings_path());
    const auto restore = [](const char* name, const std::optional<std::string>& v) {
        if (v) ::setenv(name, v->c_str(), 1);
        else ::unsetenv(name);
    };
    restore("GLINT_STATE_DIR", glint_dir);
    restore("XDG_STATE_HOME", xdg);
    restore("HOME", home);
}
