// engine/runner/keeping/supervision.hpp: a run watched from outside (os/supervisor.hpp), so that a
// case leaving through _exit(0) — which no hook in the process sees — cannot pass for a run
// that finished: the supervising parent names the case in flight and exits 1.
//
// glint::main starts it for runs whose cases run in its own process (not --isolate, not the
// listings); GLINT_SUPERVISE=0 turns it off, and it stays off under a debugger (a tracer is
// attached) and where the OS has no child processes. The calls below are plain stores into a
// shared page (no system call), made outside timed windows; no-ops when not supervised.
#pragma once

#include <string>

namespace glint::engine {

void supervise_run();
// `shown` "" between cases; `timeout_s` (> 0) its --case-timeout: a case that stops itself
// (SIGSTOP) is continued past it, and killed if it does not then end.
void supervised_case(const std::string& shown, double timeout_s = 0);
void supervised_journal(const std::string& path);
// True once the case in flight stopped itself past its --case-timeout and was continued: the
// run must end as a case past --case-timeout does (checked where the case returns to glint).
bool supervised_overdue();
void supervised_finished();  // glint::main returns: its status is the one to keep

}  // namespace glint::engine
