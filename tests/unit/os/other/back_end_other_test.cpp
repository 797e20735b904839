// os/other: the OS back end of a build for an OS glint has not been ported to (GLINT_OS=other).
// Each source of counts refuses, with ENOSYS or with the reason that it is Linux's; nothing
// pretends to have read a value, and nothing reports a zero.
#include <doctest/doctest.h>

#include <cerrno>
#include <cstdio>
#include <string>
#include <thread>

#include "os/host.hpp"
#include "os/perf_events.hpp"
#include "os/perf_probes.hpp"
#include "os/pfm.hpp"
#include "os/process_counters.hpp"
#include "os/terminal.hpp"
#include "os/tracefs.hpp"

namespace os = glint::os;

namespace {
bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("os other: a counting group never opens, and each call says ENOSYS") {
    os::PerfGroup group;
    os::OpenFailure failure;
    CHECK_FALSE(
        group.open(os::GroupSpec{{os::Event::task_clock, os::Event::page_faults}}, failure));
    CHECK(failure.error == ENOSYS);
    CHECK(failure.event == os::Event::task_clock);
    os::GroupReading reading;
    reading.enabled = 7;
    errno = 0;
    CHECK_FALSE(group.read(reading));
    CHECK(errno == ENOSYS);
    CHECK(reading.enabled == 0);  // the reading is cleared, not left as it was
    CHECK_FALSE(group.enable());
    CHECK_FALSE(group.disable());
    CHECK_FALSE(group.reset());
    CHECK(group.map_pages() == ENOSYS);
}

TEST_CASE("os other: the probes find no PMU, no paranoid setting, no tracepoints, no libpfm") {
    CHECK_FALSE(os::list_pmus().listed);
    CHECK_FALSE(os::perf_event_paranoid().has_value());
    const os::TracepointProbe tracepoints = os::probe_tracepoint_counting();
    CHECK(tracepoints.outcome == os::TracepointProbe::Outcome::not_supported);
    CHECK(tracepoints.error == ENOSYS);
    const os::LibraryProbe library = os::probe_library("libpfm.so.4", "pfm_get_version");
    CHECK_FALSE(library.loaded);
    CHECK_FALSE(library.supported);  // no remedy applies: installing libpfm4 would not help
    CHECK(contains(library.error, "Linux-only"));
}

TEST_CASE("os other: process counters, tracepoints and libpfm names are absent, never zero") {
    os::ProcessCounterReader reader;
    const os::ProcessSnapshot snapshot = reader.snapshot();
    CHECK_FALSE(snapshot.io_ok);
    CHECK_FALSE(snapshot.rusage_ok);
    CHECK(snapshot.io_error == ENOSYS);
    for (bool present : snapshot.present) CHECK_FALSE(present);

    CHECK(os::find_tracefs().empty());
    const os::TracepointLookup lookup = os::lookup_tracepoint("", "syscalls", "sys_enter_write");
    CHECK(lookup.outcome == os::TracepointLookup::Outcome::not_supported);
    CHECK(lookup.error == ENOSYS);

    const os::PfmEncoding encoding = os::pfm_encode("INST_RETIRED:ANY_P", false, false);
    CHECK(encoding.outcome == os::PfmEncoding::Outcome::library_absent);
    CHECK(contains(encoding.error, "Linux-only"));
    CHECK_FALSE(os::pfm_library().supported);
}

TEST_CASE("os other: host facts and the terminal are what the C++ library alone knows") {
    const os::HostFacts host = os::host_facts();
    CHECK(host.os == "unknown");
    CHECK(host.cpus == std::thread::hardware_concurrency());
    CHECK(host.kernel.empty());
    std::string why;
    CHECK_FALSE(os::timestamp_counter_is_stable(why));
    CHECK(contains(why, "no OS back end"));
    CHECK_FALSE(os::stdout_is_terminal());  // tables print once, without escape codes
    CHECK_FALSE(os::terminal_columns(stdout).has_value());
}
