// os/pfm.hpp: symbolic event names resolved to perf_event encodings by libpfm4.
//
// libpfm is never linked: os/linux/pfm.cpp loads libpfm.so.4 with dlopen at the first use in
// the process and calls its public API (pfm_initialize, pfm_get_os_event_encoding with
// PFM_OS_PERF_EVENT, pfm_strerror). Without the library every encoding answers
// library_absent with the loader's reason, so callers degrade instead of failing. Other
// systems (os/other/pfm.cpp) answer library_absent with supported == false.
//
// libpfm decides which PMU tables are active from the CPU it runs on; its environment variable
// LIBPFM_FORCE_PMU=<pmu> (read by pfm_initialize) forces one, which is how encodings for other
// models are tested on any host.
#pragma once

#include <string>

#include "os/perf_events.hpp"

namespace glint::os {

inline constexpr const char* kPfmSoname = "libpfm.so.4";

// The library as loaded by the first use (later calls return the same answer).
struct PfmLibrary {
    bool loaded = false;    // dlopen, every symbol and pfm_initialize succeeded
    bool supported = true;  // false: this OS has no libpfm at all (no install remedy applies)
    std::string soname;
    std::string error;  // why not loaded: dlerror(), a missing symbol, pfm_initialize's error
    int version = 0;    // pfm_get_version(): major << 16 | minor
};
const PfmLibrary& pfm_library();

struct PfmEncoding {
    enum class Outcome {
        encoded,         // `event` holds the encoding
        library_absent,  // libpfm could not be loaded (error: why)
        unknown_event,   // no active PMU table has this event (PFM_ERR_NOTFOUND)
        invalid,         // the event exists but a unit mask or modifier is wrong
        failed,          // any other libpfm error
    };
    Outcome outcome = Outcome::failed;
    EventSpec event;        // type, config, config1, config2, exclude flags; name = `name` as given
    std::string qualified;  // libpfm's fully qualified spelling ("skl::INST_RETIRED:ANY_P:...")
    std::string error;      // pfm_strerror() text, or the load error
};

// Encodes `name` ("INST_RETIRED:ANY_P", "skl::INST_RETIRED:ANY_P", "PERF_COUNT_SW_TASK_CLOCK")
// counting user space, the kernel, or both (libpfm's default privilege level; a ":u"/":k"
// inside `name` still wins, as libpfm defines).
PfmEncoding pfm_encode(const std::string& name, bool count_user = true, bool count_kernel = true);

// Tests only: forget the loaded library (pfm_terminate, dlclose); the next use loads `soname`
// and runs pfm_initialize again, re-reading LIBPFM_FORCE_PMU. Not thread-safe with users.
void pfm_reload_for_tests(const char* soname = kPfmSoname);

}  // namespace glint::os
