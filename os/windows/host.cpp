// os/host.hpp on Windows: the computer name, the version Windows reports (RtlGetVersion, which
// no manifest shims; Wine reports the version it emulates), the CPU's brand string (CPUID), and
// whether the TSC is invariant (CPUID leaf 0x80000007, EDX bit 8).
#include "os/host.hpp"

#include <cpuid.h>

#include <cstring>
#include <thread>

#include "os/windows/win32.hpp"

namespace glint::os {
namespace {

std::string windows_version() {
    using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);
    const HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    if (!ntdll) return {};
    const auto get = reinterpret_cast<RtlGetVersionFn>(
        reinterpret_cast<void*>(GetProcAddress(ntdll, "RtlGetVersion")));
    OSVERSIONINFOW info{};
    info.dwOSVersionInfoSize = sizeof info;
    if (!get || get(&info) != 0) return {};
    return std::to_string(info.dwMajorVersion) + "." + std::to_string(info.dwMinorVersion) + "." +
           std::to_string(info.dwBuildNumber);
}

std::string cpu_brand() {
    unsigned regs[12] = {};
    unsigned top = 0, b = 0, c = 0, d = 0;
    __cpuid(0x80000000, top, b, c, d);
    if (top < 0x80000004) return {};
    for (unsigned leaf = 0; leaf < 3; ++leaf)
        __cpuid(0x80000002 + leaf, regs[4 * leaf], regs[4 * leaf + 1], regs[4 * leaf + 2],
                regs[4 * leaf + 3]);
    char text[sizeof regs + 1] = {};
    std::memcpy(text, regs, sizeof regs);
    std::string brand(text);
    const auto first = brand.find_first_not_of(' ');
    return first == std::string::npos ? std::string() : brand.substr(first);
}

}  // namespace

HostFacts host_facts() {
    HostFacts h;
    char name[MAX_COMPUTERNAME_LENGTH + 1] = {};
    DWORD size = sizeof name;
    if (GetComputerNameA(name, &size)) h.hostname.assign(name, size);
    h.os = "Windows";
    h.kernel = windows_version();
    h.cpu_model = cpu_brand();
    h.cpus = std::thread::hardware_concurrency();
    return h;
}

bool timestamp_counter_is_stable(std::string& why) {
    unsigned top = 0, b = 0, c = 0, d = 0;
    __cpuid(0x80000000, top, b, c, d);
    if (top < 0x80000007) {
        why = "CPUID has no leaf 0x80000007 to say whether the TSC is invariant";
        return false;
    }
    __cpuid(0x80000007, top, b, c, d);
    const bool invariant = (d >> 8) & 1u;
    why = invariant ? "CPUID 0x80000007: invariant TSC"
                    : "CPUID 0x80000007: the TSC is not invariant";
    return invariant;
}

}  // namespace glint::os
