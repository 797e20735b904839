#include "engine/tiers/simulated/simulated_status.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "os/callgrind.hpp"

namespace glint::engine::simulated {

using State = Status::State;

std::vector<std::string> valgrind_command(const std::string& valgrind, const std::string& folder,
                                          const std::string& program,
                                          const std::vector<std::string>& args) {
    std::vector<std::string> argv{valgrind,
                                  "--tool=callgrind",
                                  "--collect-atstart=no",
                                  "--cache-sim=yes",
                                  "--branch-sim=yes",
                                  "--I1=32768,8,64",
                                  "--D1=32768,8,64",
                                  "--LL=8388608,16,64",
                                  "-q",
                                  "--callgrind-out-file=" + folder + "/cg.%p",
                                  program};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

// A sanitizer's runtime and Valgrind cannot run one process together.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

std::string dump_folder() {
    const char* folder = std::getenv(kFolderVariable);
    return folder ? folder : "";
}

Status simulated_status() {
    if (!os::callgrind_built())
        return {"simulated-cpu", State::not_built,
                "glint was built without <valgrind/callgrind.h>, so it cannot bracket a case "
                "for Callgrind",
                "install valgrind (Debian: apt-get install valgrind, which ships the header), "
                "then rebuild glint"};
    if (kSanitized)
        return {"simulated-cpu", State::unavailable,
                "this build is instrumented by a sanitizer (-fsanitize=address or thread), "
                "whose runtime Valgrind cannot run",
                "use a build without -fsanitize for --simulate"};
    if (os::running_on_valgrind()) {
        if (dump_folder().empty())
            return {"simulated-cpu", State::unavailable,
                    "this run is already under Valgrind, not started by --simulate, so it can "
                    "neither start Callgrind nor find its dumps",
                    "run the program itself with --simulate: it starts Callgrind"};
        return {"simulated-cpu", State::available,
                fmt::format("under Callgrind (started by --simulate): instructions, data reads "
                            "and writes, cache misses ({}) and branch mispredictions, exact per "
                            "iteration",
                            kGeometry),
                ""};
    }
    std::string why;
    const std::string valgrind = os::find_on_path("valgrind", why);
    if (valgrind.empty())
        return {"simulated-cpu", State::unavailable, why + ": --simulate needs Valgrind",
                "install valgrind (Debian: apt-get install valgrind)"};
    return {"simulated-cpu", State::available,
            fmt::format("--simulate re-runs the program under {} --tool=callgrind: exact "
                        "instructions, cache misses ({}) and branch mispredictions per iteration, "
                        "no PMU needed",
                        valgrind, kGeometry),
            ""};
}

}  // namespace glint::engine::simulated
