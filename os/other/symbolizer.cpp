// Off Linux glint reads no address space: every address stays unnamed, and the reason is said.
#include "os/symbols.hpp"

namespace glint::os {

struct Symbolizer::Impl {
    std::string how =
        "symbolization reads Linux's /proc/self/maps and ELF files; this OS has neither";
};

Symbolizer::Symbolizer() : impl_(std::make_unique<Impl>()) {}
Symbolizer::~Symbolizer() = default;
Symbolized Symbolizer::lookup(std::uint64_t) { return {}; }
bool Symbolizer::debug_info_available() const { return false; }
const std::string& Symbolizer::debug_info_how() const { return impl_->how; }
std::vector<ModuleReport> Symbolizer::modules() const { return {}; }

}  // namespace glint::os
