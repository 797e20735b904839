// os/process.hpp on Linux: the names of signals.
#include <signal.h>

#include "os/process.hpp"

namespace glint::os {
namespace {

struct SignalName {
    int signal;
    const char* name;
};
constexpr SignalName kSignalNames[] = {
    {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
    {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
    {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
    {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGVTALRM, "SIGVTALRM"},
    {SIGPROF, "SIGPROF"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"},
};

}  // namespace

const char* signal_abbrev(int sig) noexcept {
    for (const SignalName& entry : kSignalNames)
        if (entry.signal == sig) return entry.name;
    return nullptr;
}

std::string signal_name(int sig) {
    const char* name = signal_abbrev(sig);
    return name ? name : "signal " + std::to_string(sig);
}

}  // namespace glint::os
