// tests/aarch64/guest/engine_run.hpp: runs the glint engine (glint::main) over this binary's
// GLINT_BENCH cases (engine_cases.cpp) in a forked child, as root or as an unprivileged user,
// and hands back what it printed and the --bench-json document it wrote.
#pragma once

#include <string>
#include <vector>

#include "engine/model/json.hpp"

namespace glint::guest {

enum class RunAs {
    root,          // kernel+user counting
    unprivileged,  // uid/gid 65534 with kernel.perf_event_paranoid=2: user-only counting
};

struct EngineRun {
    int status = -1;      // glint::main's exit status (-1: killed, or no child)
    std::string output;   // stdout and stderr together
    engine::Json doc;     // the --bench-json document; null when none was written
    std::string failure;  // why the run could not be made, else empty
};

// glint::main(["glint_guest_tests", args..., "--bench-json=<tmp file>"]) in a child.
EngineRun run_engine(const std::vector<std::string>& args, RunAs as);

// The JSON value at a path of object keys, or nullptr.
const engine::Json* find_path(const engine::Json& doc, std::initializer_list<const char*> keys);
// The row named `name` in doc["rows"], or nullptr.
const engine::Json* find_row(const engine::Json& doc, const std::string& name);
// row["metrics"][metric] as a number; nan when absent or null.
double metric_of(const engine::Json& row, const char* metric);
// Whether row["estimatedMetrics"] lists `metric`.
bool estimated(const engine::Json& row, const char* metric);

// Writes a /proc/sys value for the scope of the object and restores the previous one.
class ScopedSysctl {
  public:
    ScopedSysctl(const char* path, int value);
    ~ScopedSysctl();
    ScopedSysctl(const ScopedSysctl&) = delete;
    ScopedSysctl& operator=(const ScopedSysctl&) = delete;

  private:
    const char* path_;
    int previous_ = -1;
};

}  // namespace glint::guest
