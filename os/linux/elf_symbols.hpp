// os/linux/elf_symbols.hpp: an ELF file's function symbols and load segments.
//
// Reads a 64-bit ELF file of the host's byte order (pread through the os/linux/sys.hpp seam):
// its PT_LOAD segments (to turn a file offset, hence a runtime address, into the file's own
// virtual address) and its function symbols, from .symtab, or from .dynsym when the file was
// stripped (then only exported functions are named). A symbol without a size (hand-written
// assembly) extends to the next symbol. Whether the file carries DWARF (.debug_info) is noted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace glint::os::linux_ {

struct ElfSymbol {
    std::uint64_t start = 0;  // the file's virtual address
    std::uint64_t size = 0;
    std::string name;  // as stored (mangled)
};

struct LoadSegment {
    std::uint64_t file_offset = 0;
    std::uint64_t file_size = 0;
    std::uint64_t vaddr = 0;
};

class ElfSymbols {
  public:
    // Reads `path`. false with `why` ("not an ELF file", "32-bit ELF", an errno text) otherwise.
    bool load(const std::string& path, std::string& why);

    bool has_symtab() const { return symtab_; }  // .symtab (not stripped)
    bool has_dynsym_only() const { return !symtab_ && !symbols_.empty(); }
    bool has_debug_info() const { return debug_info_; }
    const std::vector<ElfSymbol>& symbols() const { return symbols_; }  // sorted by start

    // The virtual address of a file offset, through the PT_LOAD segment holding it.
    std::optional<std::uint64_t> vaddr_of_offset(std::uint64_t offset) const;
    // The function whose [start, start+size) holds `vaddr`; nullptr when none.
    const ElfSymbol* find(std::uint64_t vaddr) const;

  private:
    std::vector<LoadSegment> segments_;
    std::vector<ElfSymbol> symbols_;
    bool symtab_ = false;
    bool debug_info_ = false;
};

}  // namespace glint::os::linux_
