#include "os/linux/dwarf_lines.hpp"

#include <cxxabi.h>
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>

#include <cstdlib>
#include <cstring>

#include "os/linux/sys.hpp"

namespace glint::os::linux_ {
namespace {

// The libdw entry points used, typed by the header's own declarations.
struct Api {
    decltype(&::dwarf_begin) begin = nullptr;
    decltype(&::dwarf_end) end = nullptr;
    decltype(&::dwarf_addrdie) addrdie = nullptr;
    decltype(&::dwarf_nextcu) nextcu = nullptr;
    decltype(&::dwarf_offdie) offdie = nullptr;
    decltype(&::dwarf_haspc) haspc = nullptr;
    decltype(&::dwarf_getscopes) getscopes = nullptr;
    decltype(&::dwarf_getscopes_die) getscopes_die = nullptr;
    decltype(&::dwarf_tag) tag = nullptr;
    decltype(&::dwarf_diename) diename = nullptr;
    decltype(&::dwarf_attr_integrate) attr_integrate = nullptr;
    decltype(&::dwarf_formstring) formstring = nullptr;
    decltype(&::dwarf_formudata) formudata = nullptr;
    decltype(&::dwarf_getsrc_die) getsrc_die = nullptr;
    decltype(&::dwarf_lineno) lineno = nullptr;
    decltype(&::dwarf_linesrc) linesrc = nullptr;
    decltype(&::dwarf_getsrcfiles) getsrcfiles = nullptr;
    decltype(&::dwarf_filesrc) filesrc = nullptr;
};

struct Loaded {
    DwarfLibraryState state;
    Api api;
};

template <class F>
bool bind(void* handle, const char* name, F& out) {
    out = reinterpret_cast<F>(::dlsym(handle, name));
    return out != nullptr;
}

Loaded load() {
    Loaded l;
    void* h = ::dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char* e = ::dlerror();
        l.state.how = std::string("libdw.so.1 cannot be loaded (") + (e ? e : "?") +
                      "): no inline chains or source lines (apt-get install libdw1)";
        return l;
    }
    Api& a = l.api;
    const bool all =
        bind(h, "dwarf_begin", a.begin) && bind(h, "dwarf_end", a.end) &&
        bind(h, "dwarf_addrdie", a.addrdie) && bind(h, "dwarf_nextcu", a.nextcu) &&
        bind(h, "dwarf_offdie", a.offdie) && bind(h, "dwarf_haspc", a.haspc) &&
        bind(h, "dwarf_getscopes", a.getscopes) &&
        bind(h, "dwarf_getscopes_die", a.getscopes_die) && bind(h, "dwarf_tag", a.tag) &&
        bind(h, "dwarf_diename", a.diename) && bind(h, "dwarf_attr_integrate", a.attr_integrate) &&
        bind(h, "dwarf_formstring", a.formstring) && bind(h, "dwarf_formudata", a.formudata) &&
        bind(h, "dwarf_getsrc_die", a.getsrc_die) && bind(h, "dwarf_lineno", a.lineno) &&
        bind(h, "dwarf_linesrc", a.linesrc) && bind(h, "dwarf_getsrcfiles", a.getsrcfiles) &&
        bind(h, "dwarf_filesrc", a.filesrc);
    if (!all) {
        l.state.how = "libdw.so.1 lacks a dwarf_* function glint uses: no inline chains or lines";
        return l;
    }
    using Version = const char* (*)(void*);
    const auto version = reinterpret_cast<Version>(::dlsym(h, "dwfl_version"));
    const char* v = version ? version(nullptr) : nullptr;
    l.state.loaded = true;
    l.state.how = std::string("libdw.so.1") + (v ? std::string(" (elfutils ") + v + ")" : "");
    return l;  // the handle stays open for the process's lifetime
}

const Loaded& loaded() {
    static const Loaded l = load();
    return l;
}

std::string die_name(const Api& a, Dwarf_Die* die) {
    Dwarf_Attribute mem;
    for (unsigned attr : {unsigned(DW_AT_linkage_name), unsigned(DW_AT_MIPS_linkage_name)})
        if (Dwarf_Attribute* at = a.attr_integrate(die, attr, &mem))
            if (const char* s = a.formstring(at)) return demangle(s);
    const char* name = a.diename(die);
    return name ? name : "";
}

}  // namespace

const DwarfLibraryState& dwarf_library() { return loaded().state; }

std::string demangle(const char* name) {
    if (!name) return {};
    if (std::strncmp(name, "_Z", 2) != 0) return name;
    int status = 0;
    char* out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    if (status != 0 || !out) return name;
    std::string s(out);
    std::free(out);
    return s;
}

struct DwarfModule::State {
    int fd = -1;
    Dwarf* dbg = nullptr;
};

DwarfModule::DwarfModule() : state_(std::make_unique<State>()) {}

DwarfModule::~DwarfModule() {
    if (state_->dbg) loaded().api.end(state_->dbg);
    if (state_->fd >= 0) sys().close(state_->fd);
}

bool DwarfModule::open(const std::string& path, std::string& why) {
    const Loaded& l = loaded();
    if (!l.state.loaded) {
        why = l.state.how;
        return false;
    }
    state_->fd = open_retry(path.c_str(), O_RDONLY);
    if (state_->fd < 0) {
        why = std::string("cannot open: ") + std::strerror(errno);
        return false;
    }
    state_->dbg = l.api.begin(state_->fd, DWARF_C_READ);
    if (!state_->dbg) {
        why = "no DWARF (build with -g for inline chains and lines)";
        return false;
    }
    return true;
}

std::vector<CodeFrame> DwarfModule::frames(std::uint64_t vaddr) {
    std::vector<CodeFrame> out;
    if (!state_->dbg) return out;
    const Api& a = loaded().api;
    Dwarf_Die cu_mem;
    Dwarf_Die* cu = a.addrdie(state_->dbg, vaddr, &cu_mem);
    if (!cu) {  // no .debug_aranges entry (some compilers omit them): scan the units
        Dwarf_Off off = 0, next = 0;
        std::size_t header = 0;
        while (!cu && a.nextcu(state_->dbg, off, &next, &header, nullptr, nullptr, nullptr) == 0) {
            if (a.offdie(state_->dbg, off + header, &cu_mem) && a.haspc(&cu_mem, vaddr) > 0)
                cu = &cu_mem;
            off = next;
        }
    }
    if (!cu) return out;
    std::string file;
    int line = 0;
    if (Dwarf_Line* l = a.getsrc_die(cu, vaddr)) {
        if (const char* f = a.linesrc(l, nullptr, nullptr)) file = f;
        a.lineno(l, &line);
    }
    Dwarf_Die* scopes = nullptr;
    int n = a.getscopes(cu, vaddr, &scopes);
    // dwarf_getscopes continues past an inlined copy into its abstract definition; the chain of
    // concrete scopes holding the innermost function comes from dwarf_getscopes_die.
    int first = 0;
    while (first < n && a.tag(&scopes[first]) != DW_TAG_subprogram &&
           a.tag(&scopes[first]) != DW_TAG_inlined_subroutine)
        ++first;
    if (first < n && a.tag(&scopes[first]) == DW_TAG_inlined_subroutine) {
        Dwarf_Die inner = scopes[first];
        std::free(scopes);
        scopes = nullptr;
        n = a.getscopes_die(&inner, &scopes);
        first = 0;
    }
    Dwarf_Files* files = nullptr;
    std::size_t nfiles = 0;
    for (int i = first; i < n; ++i) {
        const int tag = a.tag(&scopes[i]);
        if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine) continue;
        out.push_back(CodeFrame{die_name(a, &scopes[i]), file,
                                static_cast<std::uint32_t>(line > 0 ? line : 0),
                                tag == DW_TAG_inlined_subroutine});
        if (tag == DW_TAG_subprogram) break;
        // The outer function's line is where this copy was inlined.
        Dwarf_Attribute mem;
        Dwarf_Word call_line = 0, call_file = 0;
        line = 0;
        file.clear();
        if (Dwarf_Attribute* at = a.attr_integrate(&scopes[i], DW_AT_call_line, &mem))
            if (a.formudata(at, &call_line) == 0) line = static_cast<int>(call_line);
        if (Dwarf_Attribute* at = a.attr_integrate(&scopes[i], DW_AT_call_file, &mem))
            if (a.formudata(at, &call_file) == 0 &&
                (files || a.getsrcfiles(cu, &files, &nfiles) == 0) && call_file < nfiles)
                if (const char* f = a.filesrc(files, call_file, nullptr, nullptr)) file = f;
    }
    std::free(scopes);
    return out;
}

}  // namespace glint::os::linux_
