#include "os/linux/elf_symbols.hpp"

#include <elf.h>
#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "os/linux/sys.hpp"

namespace glint::os::linux_ {
namespace {

// The whole of [offset, offset+size) of `fd`, or false.
bool read_at(int fd, std::uint64_t offset, std::size_t size, void* out) {
    auto* bytes = static_cast<unsigned char*>(out);
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n =
            sys().pread(fd, bytes + done, size - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

template <class T>
bool read_table(int fd, std::uint64_t offset, std::size_t count, std::vector<T>& out) {
    out.resize(count);
    return count == 0 || read_at(fd, offset, count * sizeof(T), out.data());
}

class Fd {
  public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) sys().close(fd_);
    }
    int get() const { return fd_; }

  private:
    int fd_;
};

bool is_function(const Elf64_Sym& s) {
    const unsigned type = ELF64_ST_TYPE(s.st_info);
    return (type == STT_FUNC || type == STT_GNU_IFUNC) && s.st_shndx != SHN_UNDEF &&
           s.st_value != 0;
}

// Reads the function symbols of symbol table `table` (its strings in section table.sh_link).
bool read_symbols(int fd, const std::vector<Elf64_Shdr>& sections, const Elf64_Shdr& table,
                  std::vector<ElfSymbol>& out) {
    if (table.sh_entsize != sizeof(Elf64_Sym) || table.sh_link >= sections.size()) return false;
    std::vector<Elf64_Sym> syms;
    std::vector<char> strings;
    const Elf64_Shdr& strtab = sections[table.sh_link];
    if (!read_table(fd, table.sh_offset, table.sh_size / sizeof(Elf64_Sym), syms) ||
        !read_table(fd, strtab.sh_offset, strtab.sh_size, strings))
        return false;
    std::vector<std::pair<ElfSymbol, unsigned>> found;  // with binding, to prefer globals
    for (const Elf64_Sym& s : syms) {
        if (!is_function(s) || s.st_name >= strings.size()) continue;
        const char* name = strings.data() + s.st_name;
        const std::size_t len = strnlen(name, strings.size() - s.st_name);
        found.push_back({ElfSymbol{s.st_value, s.st_size, std::string(name, len)},
                         ELF64_ST_BIND(s.st_info) == STB_GLOBAL ? 0u : 1u});
    }
    std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
        return a.first.start != b.first.start ? a.first.start < b.first.start : a.second < b.second;
    });
    for (auto& [sym, binding] : found)
        if (out.empty() || out.back().start != sym.start) out.push_back(std::move(sym));
    for (std::size_t i = 0; i < out.size(); ++i)  // sizeless: up to the next symbol
        if (out[i].size == 0 && i + 1 < out.size()) out[i].size = out[i + 1].start - out[i].start;
    return true;
}

}  // namespace

bool ElfSymbols::load(const std::string& path, std::string& why) {
    *this = ElfSymbols{};
    Fd fd(open_retry(path.c_str(), O_RDONLY));
    if (fd.get() < 0) {
        why = std::string("cannot open: ") + std::strerror(errno);
        return false;
    }
    Elf64_Ehdr eh{};
    if (!read_at(fd.get(), 0, sizeof eh, &eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
        why = "not an ELF file";
        return false;
    }
    if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) ||
        (eh.e_shnum != 0 && eh.e_shentsize != sizeof(Elf64_Shdr))) {
        why = "not a 64-bit ELF file";
        return false;
    }
    std::vector<Elf64_Phdr> phdrs;
    std::vector<Elf64_Shdr> sections;
    if (!read_table(fd.get(), eh.e_phoff, eh.e_phnum, phdrs) ||
        !read_table(fd.get(), eh.e_shoff, eh.e_shnum, sections)) {
        why = "truncated ELF headers";
        return false;
    }
    for (const Elf64_Phdr& p : phdrs)
        if (p.p_type == PT_LOAD) segments_.push_back({p.p_offset, p.p_filesz, p.p_vaddr});
    std::vector<char> names;
    if (eh.e_shstrndx < sections.size())
        read_table(fd.get(), sections[eh.e_shstrndx].sh_offset, sections[eh.e_shstrndx].sh_size,
                   names);
    const Elf64_Shdr* symtab = nullptr;
    const Elf64_Shdr* dynsym = nullptr;
    for (const Elf64_Shdr& s : sections) {
        if (s.sh_type == SHT_SYMTAB) symtab = &s;
        if (s.sh_type == SHT_DYNSYM) dynsym = &s;
        if (s.sh_name < names.size() &&
            std::strncmp(names.data() + s.sh_name, ".debug_info", names.size() - s.sh_name) == 0)
            debug_info_ = s.sh_type != SHT_NOBITS;
    }
    if (symtab && read_symbols(fd.get(), sections, *symtab, symbols_)) symtab_ = true;
    if (symbols_.empty() && dynsym) read_symbols(fd.get(), sections, *dynsym, symbols_);
    return true;
}

std::optional<std::uint64_t> ElfSymbols::vaddr_of_offset(std::uint64_t offset) const {
    for (const LoadSegment& s : segments_)
        if (offset >= s.file_offset && offset < s.file_offset + s.file_size)
            return s.vaddr + (offset - s.file_offset);
    return std::nullopt;
}

const ElfSymbol* ElfSymbols::find(std::uint64_t vaddr) const {
    auto it = std::upper_bound(symbols_.begin(), symbols_.end(), vaddr,
                               [](std::uint64_t v, const ElfSymbol& s) { return v < s.start; });
    if (it == symbols_.begin()) return nullptr;
    --it;
    return vaddr < it->start + it->size ? &*it : nullptr;
}

}  // namespace glint::os::linux_
