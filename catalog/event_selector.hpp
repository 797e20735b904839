// catalog/event_selector.hpp: the raw: and pfm: --metrics selector families, parsed. Pure;
// knows no OS (os/ resolves a parsed selector to an encoding, the engine opens it).
//
//   raw:r<hex>[:u|:k]                 a PERF_TYPE_RAW config, 1 to 16 hex digits ("raw:r00c0")
//   pfm:<EVENT>[:<UMASK>...][:u|:k]   a libpfm4 event name, optionally umask-qualified
//                                     ("pfm:RETIRED_SSE_AVX_FLOPS:ADD_SUB_FLOPS",
//                                     "pfm:skl::INST_RETIRED:ANY_P:u")
//
// A trailing ":u" counts user space only, ":k" the kernel only (at most one of them). The
// selector text, exactly as given, is the column's name, header and JSON key.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace glint::catalog {

enum class Privilege { both, user_only, kernel_only };

struct EventSelector {
    enum class Family { raw, pfm };
    Family family = Family::raw;
    std::string text;          // the selector as given: the column name
    std::uint64_t config = 0;  // raw: the config
    std::string event;         // pfm: the name handed to libpfm, without the privilege suffix
    Privilege privilege = Privilege::both;
};

// The catalog source of each family: "raw" or "pfm".
std::string_view family_source(EventSelector::Family family);

// True when `selector` belongs to one of the families ("raw:" or "pfm:" prefix), valid or not.
bool is_event_selector(std::string_view selector);

// Parses one selector. On a malformed one returns the reason, which names the selector and the
// expected form ("--metrics selector 'raw:zz': ... expected raw:r<hex>, e.g. raw:r00c0").
struct SelectorError {
    std::string message;
};
std::variant<EventSelector, SelectorError> parse_event_selector(std::string_view selector);

}  // namespace glint::catalog
