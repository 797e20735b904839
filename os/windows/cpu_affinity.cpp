// os/cpu_affinity.hpp on Windows: the process's affinity mask (GetProcessAffinityMask) stands
// for the CPUs the thread may use, SetThreadAffinityMask pins, GetCurrentProcessorNumber says
// where it runs, per-CPU busy times (for --pin=auto) come from NtQuerySystemInformation. One
// processor group only: the first 64 logical CPUs.
#include <cerrno>

#include "os/cpu_affinity.hpp"
#include "os/windows/win32.hpp"

namespace glint::os {

std::vector<unsigned> thread_affinity() {
    DWORD_PTR process = 0, system = 0;
    std::vector<unsigned> cpus;
    if (!GetProcessAffinityMask(GetCurrentProcess(), &process, &system)) return cpus;
    // The thread's own mask: set it to the process's and read back the previous one.
    const DWORD_PTR thread = SetThreadAffinityMask(GetCurrentThread(), process);
    if (thread != 0) {
        SetThreadAffinityMask(GetCurrentThread(), thread);
        process = thread;
    }
    for (unsigned cpu = 0; cpu < 8 * sizeof(DWORD_PTR); ++cpu)
        if (process & (DWORD_PTR{1} << cpu)) cpus.push_back(cpu);
    return cpus;
}

int set_thread_affinity(const std::vector<unsigned>& cpus) {
    DWORD_PTR mask = 0;
    for (unsigned cpu : cpus)
        if (cpu < 8 * sizeof(DWORD_PTR)) mask |= DWORD_PTR{1} << cpu;
    if (mask == 0) return EINVAL;
    return SetThreadAffinityMask(GetCurrentThread(), mask) != 0 ? 0 : EINVAL;
}

int current_cpu() { return static_cast<int>(GetCurrentProcessorNumber()); }

// Per-CPU times from NtQuerySystemInformation(SystemProcessorPerformanceInformation), in 100 ns
// units (Wine derives them from /proc/stat). Kernel time includes idle time there.
std::vector<CpuTimes> read_cpu_times(const SystemRoots&) {
    struct ProcessorTimes {  // SYSTEM_PROCESSOR_PERFORMANCE_INFORMATION
        LARGE_INTEGER idle, kernel, user, dpc, interrupt;
        ULONG interrupts;
    };
    using QueryFn = LONG(WINAPI*)(int, void*, ULONG, ULONG*);
    constexpr int kSystemProcessorPerformanceInformation = 8;
    const HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    const auto query = ntdll ? reinterpret_cast<QueryFn>(reinterpret_cast<void*>(
                                   GetProcAddress(ntdll, "NtQuerySystemInformation")))
                             : nullptr;
    std::vector<ProcessorTimes> times(64);
    ULONG size = 0;
    std::vector<CpuTimes> cpus;
    if (!query || query(kSystemProcessorPerformanceInformation, times.data(),
                        static_cast<ULONG>(times.size() * sizeof(ProcessorTimes)), &size) != 0)
        return cpus;
    for (std::size_t i = 0; i < size / sizeof(ProcessorTimes); ++i) {
        const auto idle = static_cast<std::uint64_t>(times[i].idle.QuadPart);
        const auto total =
            static_cast<std::uint64_t>(times[i].kernel.QuadPart + times[i].user.QuadPart);
        cpus.push_back({static_cast<unsigned>(i), total > idle ? total - idle : 0, total});
    }
    return cpus;
}

}  // namespace glint::os
