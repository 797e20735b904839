#include "engine/runner/simulate.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "engine/tiers/simulated/simulated_status.hpp"
#include "os/callgrind.hpp"

namespace glint::engine {

std::optional<int> run_simulated(int argc, char** argv, const RunPlan& plan) {
    if (!plan.tiers.simulate.asked || plan.mode != RunMode::bench) return std::nullopt;
    // Not under Valgrind already, and only where the tier can count (its status says why not).
    if (os::running_on_valgrind() || !simulated::simulated_status().usable()) return std::nullopt;
    std::string why;
    const std::string valgrind = os::find_on_path("valgrind", why);
    if (valgrind.empty()) return std::nullopt;  // the tier's status says so
    const std::string self = os::self_executable(why);
    const std::string folder = self.empty() ? "" : os::make_private_folder("glint-sim-", why);
    if (folder.empty()) {
        std::fprintf(stderr, "glint: error: --simulate: %s\n", why.c_str());
        return 1;
    }
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
    std::fflush(stdout);
    std::fflush(stderr);
    const os::Waited done =
        os::run_inheriting(simulated::valgrind_command(valgrind, folder, self, args),
                           {std::string(simulated::kFolderVariable) + "=" + folder});
    os::remove_private_folder(folder);
    if (!done.started) {
        std::fprintf(stderr, "glint: error: --simulate: %s\n", done.problem.c_str());
        return 1;
    }
    return done.status;
}

}  // namespace glint::engine
