// libFuzzer target: the perf mmap-page reader (os/linux/mmap_page.hpp) over arbitrary page
// contents, with a fake arch whose counter and clock reads return fixed values and whose
// "kernel" bumps the seqlock on a pattern taken from the input. Every read must terminate (the
// retry is bounded) and keep its contract: a torn read is never a user read, a user read needs
// a non-zero index.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <glint/detail/os/linux/mmap_page.hpp>

namespace {

using namespace glint::os::linux_;

perf_event_mmap_page g_page;
std::uint64_t g_bumps = 0;  // bit i: the kernel updates the page during read i

void kernel_tick() {
    if (g_bumps & 1) g_page.lock += 2;
    g_bumps = (g_bumps >> 1) | (g_bumps << 63);
}

struct FakeArch {
    static std::uint64_t read_pmc(std::uint32_t) {
        kernel_tick();
        return 0x0000'7fff'ffff'fff0;
    }
    static std::uint64_t read_timestamp() {
        kernel_tick();
        return 123456789;
    }
};

template <PageTimes Times>
void check() {
    const PageReading r = read_page_with<FakeArch, Times>(&g_page);
    if (r.torn && r.user_read) __builtin_trap();
    if (r.user_read && r.index == 0) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::memset(&g_page, 0, sizeof g_page);
    std::memcpy(&g_page, data, size < sizeof g_page ? size : sizeof g_page);
    g_bumps = 0;
    if (size > sizeof g_page)
        std::memcpy(&g_bumps, data + sizeof g_page,
                    size - sizeof g_page < sizeof g_bumps ? size - sizeof g_page : sizeof g_bumps);
    check<PageTimes::none>();
    check<PageTimes::published>();
    check<PageTimes::extrapolated>();
    (void)capabilities_of(&g_page);
    return 0;
}
