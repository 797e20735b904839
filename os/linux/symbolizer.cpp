// The Linux symbolizer: /proc/self/maps for modules and load biases, each module's ELF symbol
// table for the containing function, its DWARF (libdw) for inline chains and lines.
#include <algorithm>
#include <map>

#include "os/linux/dwarf_lines.hpp"
#include "os/linux/elf_symbols.hpp"
#include "os/linux/proc_maps.hpp"
#include "os/symbols.hpp"

namespace glint::os {

using linux_::DwarfModule;
using linux_::ElfSymbols;
using linux_::Mapping;

namespace {

struct Module {
    ModuleReport report;
    bool elf = false;
    ElfSymbols symbols;
    DwarfModule dwarf;
    bool dwarf_open = false;
};

std::unique_ptr<Module> load_module(const std::string& path) {
    auto m = std::make_unique<Module>();
    m->report.path = path;
    std::string why;
    m->elf = m->symbols.load(path, why);
    if (!m->elf) {
        m->report.note = why;
        return m;
    }
    m->report.symbol_table = !m->symbols.symbols().empty();
    if (!m->symbols.has_symtab())
        m->report.note = m->symbols.has_dynsym_only()
                             ? "stripped: only exported functions are named (.dynsym)"
                             : "stripped: no symbol table, addresses shown as module+offset";
    if (m->symbols.has_debug_info()) {
        m->dwarf_open = m->dwarf.open(path, why);
        m->report.debug_info = m->dwarf_open;
        if (!m->dwarf_open) m->report.note += (m->report.note.empty() ? "" : "; ") + why;
    } else {
        m->report.note += std::string(m->report.note.empty() ? "" : "; ") +
                          "no DWARF: no inline chains or lines (build with -g)";
    }
    return m;
}

}  // namespace

struct Symbolizer::Impl {
    std::vector<Mapping> maps;  // sorted by start (the kernel lists them so)
    std::map<std::string, std::unique_ptr<Module>> modules;
    std::vector<std::string> order;

    Module& module(const std::string& path) {
        auto it = modules.find(path);
        if (it == modules.end()) {
            it = modules.emplace(path, load_module(path)).first;
            order.push_back(path);
        }
        return *it->second;
    }
};

Symbolizer::Symbolizer() : impl_(std::make_unique<Impl>()) {
    impl_->maps = linux_::read_self_maps();
}

Symbolizer::~Symbolizer() = default;

Symbolized Symbolizer::lookup(std::uint64_t address) {
    Symbolized out;
    const auto& maps = impl_->maps;
    auto it = std::upper_bound(maps.begin(), maps.end(), address,
                               [](std::uint64_t a, const Mapping& m) { return a < m.start; });
    if (it == maps.begin()) return out;
    const Mapping& map = *std::prev(it);
    if (address >= map.end) return out;
    out.module = map.path;
    out.offset = address - map.start + map.file_offset;
    if (map.path.empty() || map.path.front() == '[') return out;  // anonymous, [vdso], ...
    Module& m = impl_->module(map.path);
    if (!m.elf) return out;
    const auto vaddr = m.symbols.vaddr_of_offset(out.offset);
    if (!vaddr) return out;
    out.offset = *vaddr;
    const linux_::ElfSymbol* sym = m.symbols.find(*vaddr);
    if (sym) out.function_start = address - (*vaddr - sym->start);
    if (m.dwarf_open) out.frames = m.dwarf.frames(*vaddr);
    const std::string elf_name = sym ? linux_::demangle(sym->name.c_str()) : std::string();
    if (out.frames.empty() && sym) out.frames.push_back(CodeFrame{elf_name, "", 0, false});
    else if (!out.frames.empty() && out.frames.back().function.empty())
        out.frames.back().function = elf_name;
    return out;
}

bool Symbolizer::debug_info_available() const { return linux_::dwarf_library().loaded; }
const std::string& Symbolizer::debug_info_how() const { return linux_::dwarf_library().how; }

std::vector<ModuleReport> Symbolizer::modules() const {
    std::vector<ModuleReport> out;
    for (const auto& path : impl_->order) out.push_back(impl_->modules.at(path)->report);
    return out;
}

}  // namespace glint::os
