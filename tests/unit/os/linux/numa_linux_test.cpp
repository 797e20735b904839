// Page placement (move_pages) and memory binding (set_mempolicy) on Linux: the kernel's
// answers faked behind the sys() seam for two nodes, and the real kernel for this host's one.
#include <doctest/doctest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "os/linux/sys.hpp"
#include "os/numa.hpp"
#include "support/skip.hpp"

namespace linux_ = glint::os::linux_;
using glint::os::bind_memory_to_nodes;
using glint::os::page_placement;

namespace {

// A fake move_pages: page i of the range answers kStatus[i % 4]; every call is recorded.
struct FakeMovePages {
    static inline std::vector<unsigned long> counts;
    static inline const void* first_page = nullptr;
    static inline bool nodes_null = true;
    static long call(int, unsigned long count, void** pages, const int* nodes, int* status, int) {
        counts.push_back(count);
        nodes_null = nodes_null && nodes == nullptr;
        if (counts.size() == 1) first_page = pages[0];
        static const int kStatus[] = {1, 1, 0, -ENOENT};
        for (unsigned long i = 0; i < count; ++i) status[i] = kStatus[i % 4];
        return 0;
    }
};

}  // namespace

TEST_CASE("numa: page placement counts pages per node, not-present pages apart") {
    linux_::SysTable table = linux_::sys();
    table.move_pages = &FakeMovePages::call;
    linux_::ScopedSys scope(table);
    FakeMovePages::counts.clear();
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    // 10,000 pages starting mid-page: 10,001 pages touched, asked in batches of 4096.
    const auto* base = reinterpret_cast<const char*>(std::uintptr_t{1} << 30);
    const auto p = page_placement(base + 100, 10000 * page);
    CHECK(p.ok());
    CHECK(p.pages == 10001);
    CHECK(FakeMovePages::counts == std::vector<unsigned long>{4096, 4096, 1809});
    CHECK(FakeMovePages::nodes_null);          // asks, never moves
    CHECK(FakeMovePages::first_page == base);  // the page-aligned start
    REQUIRE(p.on_node.size() == 2);
    // Each batch restarts the 4-page pattern: 4096 = 1024 × 4, 1809 = 452 × 4 + 1.
    CHECK(p.on_node[1] == 2 * 2048 + 2 * 452 + 1);
    CHECK(p.on_node[0] == 2 * 1024 + 452);
    CHECK(p.not_present == 2 * 1024 + 452);
    CHECK(p.on_node[0] + p.on_node[1] + p.not_present == p.pages);
}

TEST_CASE("numa: a kernel without NUMA support is an error, not node 0") {
    linux_::SysTable table = linux_::sys();
    table.move_pages = [](int, unsigned long, void**, const int*, int*, int) -> long {
        errno = ENOSYS;
        return -1;
    };
    linux_::ScopedSys scope(table);
    int x = 0;
    const auto p = page_placement(&x, sizeof x);
    CHECK(p.error == ENOSYS);
    CHECK(p.on_node.empty());
    CHECK(page_placement(&x, 0).ok());  // an empty range asks nothing
}

TEST_CASE("numa: binding memory passes MPOL_BIND and the node mask") {
    static int mode = -1;
    static unsigned long mask = 0, maxnode = 0;
    linux_::SysTable table = linux_::sys();
    table.set_mempolicy = [](int m, const unsigned long* nodemask, unsigned long max) -> long {
        mode = m;
        mask = nodemask[0];
        maxnode = max;
        return 0;
    };
    linux_::ScopedSys scope(table);
    CHECK(bind_memory_to_nodes({1}) == 0);
    CHECK(mode == 2);  // MPOL_BIND
    CHECK(mask == 0b10);
    CHECK(maxnode > 1);  // the kernel reads maxnode - 1 bits: node 1 must be among them
    CHECK(bind_memory_to_nodes({0, 3}) == 0);
    CHECK(mask == 0b1001);
    CHECK(bind_memory_to_nodes({}) == EINVAL);
}

TEST_CASE("numa: this kernel places a touched page on a node and an untouched one nowhere") {
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    void* mem =
        ::mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(mem != MAP_FAILED);
    std::memset(mem, 1, page);  // only the first page is faulted in
    const auto p = page_placement(mem, 2 * page);
    ::munmap(mem, 2 * page);
    if (p.error == ENOSYS)
        return glint::test::skip("this kernel has no NUMA support (move_pages: ENOSYS)");
    REQUIRE(p.ok());
    CHECK(p.pages == 2);
    CHECK(p.not_present == 1);
    std::size_t placed = 0;
    for (std::size_t n : p.on_node) placed += n;
    CHECK(placed == 1);
}
