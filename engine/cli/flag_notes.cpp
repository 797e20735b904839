#include <algorithm>

#include "engine/cli/option_table.hpp"

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
    // counting flags name, so those flags count there (the rows' Scope).
    const bool informational =
        options.list_metrics || options.capabilities || options.group_by_list;
    std::vector<std::string> seen;
    auto note = [&](const std::string& flag, const char* why) {
        if (std::find(seen.begin(), seen.end(), flag) != seen.end()) return;
        seen.push_back(flag);
        notes.push_back(flag + " has no effect " + why);
    };
    for (const auto& flag : options.given) {
        const OptionRow* row = find_option(flag);
        const Scope scope = row ? row->scope : Scope::anywhere;
        if (flag == "--group-by") {  // --group-by=list is an informational mode of its own
            if (!options.group_by_list) note(flag, "without --bench");
        } else if (scope == Scope::bench) {
            note(flag, "without --bench");
        } else if (scope == Scope::counting && !informational &&
                   !(flag == "--metrics" && options.list_metrics)) {
            note(flag, "without --bench");
        }
    }
    return notes;
}

}  // namespace glint::engine
