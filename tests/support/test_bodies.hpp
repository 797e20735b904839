// tests/support/test_bodies.hpp: bodies with a known effect on software counters, for the
// real-kernel perf tests.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <ctime>

namespace glint::test {

// Spins until this thread has used `cpu_ns` of CPU time (task-clock counts exactly that).
inline void burn_cpu(long cpu_ns) {
    timespec start{}, now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    do {
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    } while ((now.tv_sec - start.tv_sec) * 1'000'000'000L + (now.tv_nsec - start.tv_nsec) < cpu_ns);
}

// Writes one byte to each of `pages` fresh anonymous pages: one minor fault each. Safe to call
// from any thread (aborts instead of asserting if mmap fails).
inline void touch_fresh_pages(int pages) {
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t bytes = static_cast<std::size_t>(pages) * page;
    void* region =
        ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) std::abort();
    auto* p = static_cast<volatile char*>(region);
    for (int i = 0; i < pages; ++i) p[static_cast<std::size_t>(i) * page] = 1;
    ::munmap(region, bytes);
}

}  // namespace glint::test
