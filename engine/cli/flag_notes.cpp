#include <algorithm>

#include "engine/cli/options.hpp"

namespace glint::engine {

std::vector<std::string> ineffective_flag_notes(const Options& options) {
    std::vector<std::string> notes;
    if (options.list && !options.recover_journal) {  // a listing runs nothing, in either mode
        for (const auto& flag : options.given) {
            const std::string note = flag + " has no effect with --list";
            if (flag != "--list" && flag != "--format" && flag != "--filter" && flag != "--bench" &&
                std::find(notes.begin(), notes.end(), note) == notes.end())
                notes.push_back(note);
        }
        return notes;
    }
    if (options.bench || options.recover_journal) {
        if (options.recover_journal)
            for (const auto& flag : options.given)
                if (flag != "--recover-journal" && flag != "--bench-json")
                    notes.push_back(flag + " has no effect with --recover-journal");
        return notes;
    }
    // Without --bench nothing is measured. The informational modes still open the tiers the
    // counting flags name, so those flags count there.
    const bool informational = options.list_metrics || options.capabilities || options.group_by_list;
    static const char* const kMeasuring[] = {"--bench-json",    "--bench-baseline", "--bench-min-time",
                                             "--sort-by",       "--perf-iters",     "--perf-batch",
                                             "--per-iteration", "--histogram",      "--pin",
                                             "--numa-node",     "--quiet-environment", "--bench-repeat",
                                             "--bench-html",    "--bench-format",   "--threshold",
                                             "--fail-if-slower", "--bench-json-samples"};
    static const char* const kCounting[] = {"--perf",    "--perf-scaled", "--perf-inherit",    "--perf-read",
                                            "--metrics", "--syscalls",    "--profile",         "--profile-samples",
                                            "--profile-time", "--profile-folded"};
    std::vector<std::string> seen;
    auto note = [&](const std::string& flag, const char* why) {
        if (std::find(seen.begin(), seen.end(), flag) != seen.end()) return;
        seen.push_back(flag);
        notes.push_back(flag + " has no effect " + why);
    };
    for (const auto& flag : options.given) {
        for (const char* m : kMeasuring)
            if (flag == m) note(flag, "without --bench");
        if (!informational)
            for (const char* c : kCounting)
                if (flag == c && !(flag == "--metrics" && options.list_metrics)) note(flag, "without --bench");
        if (flag == "--group-by" && !options.group_by_list) note(flag, "without --bench");
    }
    return notes;
}

}  // namespace glint::engine
