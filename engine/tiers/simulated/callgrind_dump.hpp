// engine/tiers/simulated/callgrind_dump.hpp: one Callgrind dump read back, and the simulated
// tier's columns as sums of its events. Pure: tests hand it text.
//
// A dump names its events ("events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim" with
// cache and branch simulation) and its whole cost in one "summary:" line, whose trailing zeros
// Callgrind leaves out; "desc: Trigger: Client Request: NAME" names the dump.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace glint::engine::simulated {

struct Dump {
    std::vector<std::string> events;
    std::vector<double> summary;  // one per event (left-out trailing values read 0)
    std::string trigger;          // the client request's name ("" when none)

    // The event's total; nan when the dump has no such event.
    double value(std::string_view event) const;
};

// The dump in `text`, or nullopt with `why` (no events line, no summary, a value not a number).
std::optional<Dump> parse_dump(std::string_view text, std::string& why);

struct Column {
    const char* name;                   // the catalog name ("sim-instr")
    const char* header;                 // the table header, marked simulated ("sim:instr")
    std::array<const char*, 2> events;  // summed (nullptr: unused)
    bool is_default;
    bool cache;         // a cache miss count (the geometry's)
    const char* means;  // one phrase for --list-metrics and the docs
};

inline constexpr std::array<Column, 11> kColumns{{
    {"sim-instr", "sim:instr", {"Ir", nullptr}, true, false, "instructions"},
    {"sim-dreads", "sim:dreads", {"Dr", nullptr}, false, false, "data reads"},
    {"sim-dwrites", "sim:dwrites", {"Dw", nullptr}, false, false, "data writes"},
    {"sim-l1i-miss", "sim:l1i-miss", {"I1mr", nullptr}, false, true, "L1 instruction misses"},
    {"sim-l1d-miss", "sim:l1d-miss", {"D1mr", "D1mw"}, true, true, "L1 data misses"},
    {"sim-lli-miss", "sim:lli-miss", {"ILmr", nullptr}, false, true, "LL instruction misses"},
    {"sim-lld-miss", "sim:lld-miss", {"DLmr", "DLmw"}, true, true, "LL data misses"},
    {"sim-branches", "sim:branches", {"Bc", nullptr}, false, false, "conditional branches"},
    {"sim-branch-miss", "sim:br-miss", {"Bcm", nullptr}, true, false, "mispredicted ones"},
    {"sim-ibranches", "sim:ibranches", {"Bi", nullptr}, false, false, "indirect branches"},
    {"sim-ibranch-miss", "sim:ibr-miss", {"Bim", nullptr}, false, false, "mispredicted ones"},
}};

// The column's total in `dump` (the sum of its events; nan when the dump lacks one).
double column_total(const Column& column, const Dump& dump);

}  // namespace glint::engine::simulated
