// engine/compare/memory_reserve.hpp: reading a document that does not fit in memory ends in
// std::bad_alloc, never in std::terminate. A parse tree (nlohmann::json) allocates while it is
// destroyed, and a destructor that fails to allocate while an exception unwinds terminates the
// process; so while a MemoryReserve lives, the first allocation that fails frees a reserve
// (address space returned to the system) and throws std::bad_alloc: the unwinding has the
// reserve's room. One at a time (it sets the process's new-handler).
#pragma once

#include <cstddef>
#include <new>

namespace glint::engine {

class MemoryReserve {
  public:
    static constexpr std::size_t kBytes = 32 << 20;
    MemoryReserve();
    ~MemoryReserve();  // frees the reserve if it is still held, restores the new-handler
    MemoryReserve(const MemoryReserve&) = delete;
    MemoryReserve& operator=(const MemoryReserve&) = delete;

  private:
    std::new_handler previous_;
};

}  // namespace glint::engine
