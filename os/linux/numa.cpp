// Linux: page placement with move_pages(2) and memory binding with set_mempolicy(2), the raw
// system calls through the sys() seam (the numaif.h constants are spelled out: no libnuma).
#include <unistd.h>

#include <cerrno>
#include <cstdint>

#include "os/linux/bit_mask.hpp"
#include "os/linux/sys.hpp"
#include "os/numa.hpp"

namespace glint::os {
namespace {

constexpr int kMpolBind = 2;          // MPOL_BIND (linux/mempolicy.h)
constexpr std::size_t kBatch = 4096;  // pages asked about per move_pages call

}  // namespace

PagePlacement page_placement(const void* ptr, std::size_t bytes) {
    PagePlacement p;
    const long page = ::sysconf(_SC_PAGESIZE);
    p.page_size = page > 0 ? static_cast<std::size_t>(page) : 4096;
    if (bytes == 0) return p;
    const auto first = reinterpret_cast<std::uintptr_t>(ptr) & ~(std::uintptr_t{p.page_size} - 1);
    const auto last =
        (reinterpret_cast<std::uintptr_t>(ptr) + bytes - 1) & ~(std::uintptr_t{p.page_size} - 1);
    p.pages = (last - first) / p.page_size + 1;
    std::vector<void*> pages;
    std::vector<int> status;
    for (std::size_t done = 0; done < p.pages; done += pages.size()) {
        const std::size_t n = std::min(kBatch, p.pages - done);
        pages.resize(n);
        status.assign(n, 0);
        for (std::size_t i = 0; i < n; ++i)
            pages[i] = reinterpret_cast<void*>(first + (done + i) * p.page_size);
        if (linux_::sys().move_pages(0, n, pages.data(), nullptr, status.data(), 0) != 0) {
            p.error = errno;
            p.on_node.clear();
            p.not_present = p.unknown = 0;
            return p;
        }
        for (int s : status) {
            if (s >= 0) {
                if (p.on_node.size() <= static_cast<std::size_t>(s)) p.on_node.resize(s + 1, 0);
                ++p.on_node[static_cast<std::size_t>(s)];
            } else if (s == -ENOENT) {
                ++p.not_present;
            } else {
                ++p.unknown;
            }
        }
    }
    return p;
}

int bind_memory_to_nodes(const std::vector<unsigned>& nodes) {
    if (nodes.empty()) return EINVAL;
    const linux_::BitMask mask = linux_::bit_mask(nodes);
    // maxnode counts bits, and the kernel reads one fewer than it is given.
    if (linux_::sys().set_mempolicy(kMpolBind, mask.data(),
                                    mask.size() * linux_::kBitsPerWord + 1) != 0)
        return errno;
    return 0;
}

}  // namespace glint::os
