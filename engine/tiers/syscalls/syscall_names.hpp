// engine/tiers/syscalls/syscall_names.hpp: which syscall columns a run asks for.
//
// --syscalls adds the total column "syscalls"; --syscalls=futex,read adds "sc:futex" and
// "sc:read" as well. Naming a column in --metrics asks for it the same way ("syscalls",
// "sc:write"), so --metrics=sc:write needs no --syscalls. Names are system call names as
// tracefs spells them (letters, digits, '_'); anything else is a usage error (exit 2).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/tiers/request.hpp"

namespace glint::engine::syscalls {

inline constexpr const char* kTotalColumn = "syscalls";
inline constexpr const char* kColumnPrefix = "sc:";
inline constexpr std::size_t kMaxNamed = 62;

// The syscalls to count one by one: --syscalls=... then sc:<name> selectors of --metrics,
// first-seen order, without duplicates.
std::vector<std::string> requested_syscalls(const TierRequest& request);

// True when the run asks for any syscall column (--syscalls, or "syscalls"/"sc:<name>" named
// in --metrics; globs and "all" are resolved against the catalog by the runner).
bool syscall_columns_named(const TierRequest& request);

// The first bad syscall name (from --syscalls or an sc: selector) as one line naming it, or
// nullopt. Also refuses more than kMaxNamed names in all.
std::optional<std::string> check_syscall_names(const TierRequest& request);

// For --list-metrics: the sc:<name> family, which the catalog lists only once named.
std::string selector_family_line();

// With --syscalls beside an explicit --metrics list, the syscall columns stay visible: the
// names of the "syscall" columns of `catalog` the opened tier shows by default, to add to the
// selection (none when --metrics is empty, where they are default columns anyway, or without
// --syscalls).
std::vector<std::string> syscall_flag_selectors(
    const TierRequest& request, const std::vector<catalog::MetricDescriptor>& catalog);

}  // namespace glint::engine::syscalls
