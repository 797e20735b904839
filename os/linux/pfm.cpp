// libpfm4 through dlopen: the public API declared in <perfmon/pfmlib_perf_event.h>, resolved
// with dlsym at the first use. Nothing links libpfm; the header only gives the signatures.
#include <dlfcn.h>
#include <perfmon/pfmlib_perf_event.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

#include "os/pfm.hpp"

namespace glint::os {
namespace {

struct Api {
    decltype(&::pfm_initialize) initialize = nullptr;
    decltype(&::pfm_terminate) terminate = nullptr;
    decltype(&::pfm_strerror) strerror = nullptr;
    decltype(&::pfm_get_version) get_version = nullptr;
    decltype(&::pfm_get_os_event_encoding) encode = nullptr;
};

struct Loaded {
    bool attempted = false;
    std::string soname = kPfmSoname;
    void* handle = nullptr;
    Api api;
    PfmLibrary library;
};

std::mutex g_mutex;
Loaded g_loaded;

template <class F>
bool bind(void* handle, const char* symbol, F& out, std::string& error) {
    out = reinterpret_cast<F>(::dlsym(handle, symbol));
    if (out == nullptr) error = std::string("no symbol ") + symbol + " in the library";
    return out != nullptr;
}

void load(Loaded& l) {
    l.attempted = true;
    l.library = PfmLibrary{};
    l.library.soname = l.soname;
    l.handle = ::dlopen(l.soname.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (l.handle == nullptr) {
        const char* error = ::dlerror();
        l.library.error = error ? error : "dlopen failed";
        return;
    }
    std::string& error = l.library.error;
    const bool bound = bind(l.handle, "pfm_initialize", l.api.initialize, error) &&
                       bind(l.handle, "pfm_terminate", l.api.terminate, error) &&
                       bind(l.handle, "pfm_strerror", l.api.strerror, error) &&
                       bind(l.handle, "pfm_get_version", l.api.get_version, error) &&
                       bind(l.handle, "pfm_get_os_event_encoding", l.api.encode, error);
    if (!bound) {
        ::dlclose(l.handle);
        l.handle = nullptr;
        l.api = Api{};
        return;
    }
    const int rc = l.api.initialize();
    if (rc != PFM_SUCCESS) {
        error = std::string("pfm_initialize failed: ") + l.api.strerror(rc);
        ::dlclose(l.handle);
        l.handle = nullptr;
        l.api = Api{};
        return;
    }
    l.library.version = l.api.get_version();
    l.library.loaded = true;
}

Loaded& loaded_locked() {
    if (!g_loaded.attempted) load(g_loaded);
    return g_loaded;
}

PfmEncoding::Outcome outcome_of(int rc) {
    switch (rc) {
        case PFM_ERR_NOTFOUND:
            return PfmEncoding::Outcome::unknown_event;
        case PFM_ERR_UMASK:
        case PFM_ERR_ATTR:
        case PFM_ERR_ATTR_VAL:
        case PFM_ERR_ATTR_SET:
        case PFM_ERR_FEATCOMB:
        case PFM_ERR_INVAL:
            return PfmEncoding::Outcome::invalid;
        default:
            return PfmEncoding::Outcome::failed;
    }
}

}  // namespace

const PfmLibrary& pfm_library() {
    std::lock_guard lock(g_mutex);
    return loaded_locked().library;
}

PfmEncoding pfm_encode(const std::string& name, bool count_user, bool count_kernel) {
    std::lock_guard lock(g_mutex);
    Loaded& l = loaded_locked();
    PfmEncoding out;
    out.event.name = name;
    if (!l.library.loaded) {
        out.outcome = PfmEncoding::Outcome::library_absent;
        out.error = l.library.error;
        return out;
    }
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof attr);
    char* qualified = nullptr;
    pfm_perf_encode_arg_t arg;
    std::memset(&arg, 0, sizeof arg);
    arg.attr = &attr;
    arg.fstr = &qualified;
    arg.size = sizeof arg;
    const int plm = (count_user ? PFM_PLM3 : 0) | (count_kernel ? PFM_PLM0 : 0);
    const int rc = l.api.encode(name.c_str(), plm, PFM_OS_PERF_EVENT, &arg);
    if (qualified != nullptr) {
        out.qualified = qualified;
        std::free(qualified);  // allocated by libpfm with malloc
    }
    if (rc != PFM_SUCCESS) {
        out.outcome = outcome_of(rc);
        out.error = l.api.strerror(rc);
        return out;
    }
    out.outcome = PfmEncoding::Outcome::encoded;
    out.event.type = attr.type;
    out.event.config = attr.config;
    out.event.config1 = attr.config1;
    out.event.config2 = attr.config2;
    out.event.exclude_user = attr.exclude_user != 0;
    out.event.exclude_kernel = attr.exclude_kernel != 0;
    return out;
}

void pfm_reload_for_tests(const char* soname) {
    std::lock_guard lock(g_mutex);
    if (g_loaded.handle != nullptr) {
        g_loaded.api.terminate();
        ::dlclose(g_loaded.handle);
    }
    g_loaded = Loaded{};
    g_loaded.soname = soname;
}

}  // namespace glint::os
