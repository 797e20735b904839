// os/symbols.hpp: naming addresses of this process's own code, the OS-neutral surface.
//
// A Symbolizer snapshots the address space when made, then maps a code address to its module,
// function (ELF symbols, demangled) and, where DWARF and the debug-info library are there, its
// inline chain with source lines. What it cannot name it says: module+offset with a note, or no
// module. Off Linux it names nothing and says why. Not thread-safe; the caller caches lookups.
// Rationale and details: docs/rationale.md, "os/symbols.hpp".
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace glint::os {

// One function at an address: the containing function or one inlined into it.
struct CodeFrame {
    std::string function;    // demangled; "" when nothing names it
    std::string file;        // source file of `line` ("" unknown)
    std::uint32_t line = 0;  // innermost frame: the address's line; an outer frame: the line
                             // of the call the next inner frame was inlined at; 0 unknown
    bool inlined = false;    // an inlined copy (DWARF DW_TAG_inlined_subroutine)
};

struct Symbolized {
    std::string module;                // the mapped file's path; "" when the address is in none
    std::uint64_t offset = 0;          // the address in the module's own (ELF) address space
    std::uint64_t function_start = 0;  // runtime address of the containing symbol; 0 unknown
    // Innermost first; the last is the containing function. Empty when nothing names it.
    std::vector<CodeFrame> frames;
};

// What the symbolizer could use for one module it was asked about.
struct ModuleReport {
    std::string path;
    bool symbol_table = false;  // .symtab, or .dynsym only (then `note` says so)
    bool debug_info = false;    // DWARF read (inline chains and lines)
    std::string note;           // why something is missing ("stripped: ...", "no DWARF: ...")
};

class Symbolizer {
  public:
    // Reads the address space now; code mapped later (dlopen) is not known to it.
    Symbolizer();
    ~Symbolizer();
    Symbolizer(const Symbolizer&) = delete;
    Symbolizer& operator=(const Symbolizer&) = delete;

    Symbolized lookup(std::uint64_t address);

    // Whether DWARF can be read at all here, and how ("libdw.so.1 (elfutils 0.188)"), or why not.
    bool debug_info_available() const;
    const std::string& debug_info_how() const;
    // The modules lookup() has touched, in first-use order.
    std::vector<ModuleReport> modules() const;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace glint::os
