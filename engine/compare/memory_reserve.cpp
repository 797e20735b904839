#include "engine/compare/memory_reserve.hpp"

namespace glint::engine {
namespace {

char* g_memory_reserve = nullptr;

void free_reserve_and_fail() {
    delete[] g_memory_reserve;  // large: unmapped, its address space returned
    g_memory_reserve = nullptr;
    throw std::bad_alloc();
}

}  // namespace

MemoryReserve::MemoryReserve() {
    g_memory_reserve = new (std::nothrow) char[kBytes];
    previous_ = std::set_new_handler(&free_reserve_and_fail);
}

MemoryReserve::~MemoryReserve() {
    std::set_new_handler(previous_);
    delete[] g_memory_reserve;
    g_memory_reserve = nullptr;
}

}  // namespace glint::engine
