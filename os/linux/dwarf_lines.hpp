// os/linux/dwarf_lines.hpp: inline chains and source lines from a module's DWARF.
//
// Through elfutils' libdw, loaded with dlopen("libdw.so.1") on first use (the headers come
// from libdw-dev at build time; nothing links it, so libglint.a's link line and the static
// arm64 guest build stay as they were). Without the library, or for a module without DWARF,
// there are no frames and the caller falls back to the ELF symbol table.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "os/symbols.hpp"

namespace glint::os::linux_ {

// Whether libdw loaded (once per process), and how ("libdw.so.1 (elfutils 0.188)") or why not.
struct DwarfLibraryState {
    bool loaded = false;
    std::string how;
};
const DwarfLibraryState& dwarf_library();

// "name" demangled when it is a mangled C++ name; itself otherwise.
std::string demangle(const char* name);

class DwarfModule {
  public:
    DwarfModule();
    ~DwarfModule();
    DwarfModule(const DwarfModule&) = delete;
    DwarfModule& operator=(const DwarfModule&) = delete;

    // Reads `path`'s DWARF. false (no frames will come) when the library is absent or the file
    // has none; `why` says which.
    bool open(const std::string& path, std::string& why);

    // The functions at `vaddr` (the file's own address space), innermost first: inlined ones,
    // then the containing subprogram, each with its line (see CodeFrame). Empty when no
    // compilation unit covers the address.
    std::vector<CodeFrame> frames(std::uint64_t vaddr);

    struct State;

  private:
    std::unique_ptr<State> state_;
};

}  // namespace glint::os::linux_
