// Honest stub off Linux: libpfm4 encodes perf_event attributes, which exist only on Linux.
#include "os/pfm.hpp"

namespace glint::os {
namespace {

PfmLibrary absent(const char* soname) {
    PfmLibrary library;
    library.soname = soname;
    library.supported = false;
    library.error = "libpfm4 and perf_event are Linux-only";
    return library;
}

std::string g_soname = kPfmSoname;

}  // namespace

const PfmLibrary& pfm_library() {
    static PfmLibrary library;
    library = absent(g_soname.c_str());
    return library;
}

PfmEncoding pfm_encode(const std::string& name, bool, bool) {
    PfmEncoding out;
    out.outcome = PfmEncoding::Outcome::library_absent;
    out.event.name = name;
    out.error = pfm_library().error;
    return out;
}

void pfm_reload_for_tests(const char* soname) { g_soname = soname; }

}  // namespace glint::os
