// os/numa.hpp: which NUMA node holds each page of a range, and binding memory to nodes.
//
// Linux (os/linux/numa.cpp): the raw move_pages(2) (with no target nodes it moves nothing and
// reports each page's node) and set_mempolicy(2) (MPOL_BIND), through the sys() seam; no
// libnuma. Other systems: ENOSYS.
#pragma once

#include <cstddef>
#include <vector>

namespace glint::os {

struct PagePlacement {
    int error = 0;  // errno when the kernel could not answer (ENOSYS: no NUMA)
    std::size_t page_size = 0;
    std::size_t pages = 0;             // pages the range touches
    std::vector<std::size_t> on_node;  // pages on node i (sized to the highest node seen + 1)
    std::size_t not_present = 0;       // pages not faulted in yet (-ENOENT): on no node
    std::size_t unknown = 0;           // pages the kernel reported another error for

    bool ok() const { return error == 0; }
};

// Where the pages of [ptr, ptr + bytes) live now. Pages are asked about in batches; nothing
// moves. An empty range has zero pages and is ok.
PagePlacement page_placement(const void* ptr, std::size_t bytes);

// Binds the calling thread's future allocations to `nodes` (MPOL_BIND). Returns 0 or the errno.
int bind_memory_to_nodes(const std::vector<unsigned>& nodes);

}  // namespace glint::os
