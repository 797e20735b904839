// os/process.hpp on Linux: children and how they end, signal names, the interruption watch.
#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "os/process.hpp"

using namespace glint::os;
using End = ChildOutcome::End;

namespace {

struct Collected {
    std::vector<std::string> lines;
    ChildOutcome outcome;
};

Collected run(const std::function<void(int)>& child, double timeout_s = 0,
              std::function<bool()> tick = {}) {
    Collected c;
    ChildWatch watch;
    watch.timeout_s = timeout_s;
    watch.on_line = [&](std::string_view line) { c.lines.emplace_back(line); };
    watch.tick = std::move(tick);
    c.outcome = run_child(child, watch);
    return c;
}

}  // namespace

TEST_CASE("process linux: a child's lines arrive whole, an unfinished last line is dropped") {
    const auto c = run([](int fd) {
        write_to_parent(fd, "first\nsec");
        write_to_parent(fd, "ond\n");
        write_to_parent(fd, std::string(200000, 'x') + "\n");  // more than a pipe holds
        write_to_parent(fd, "cut sh");
    });
    CHECK(c.outcome.end == End::exited);
    CHECK(c.outcome.exit_code == 0);
    REQUIRE(c.lines.size() == 3);
    CHECK(c.lines[0] == "first");
    CHECK(c.lines[1] == "second");
    CHECK(c.lines[2].size() == 200000);
}

TEST_CASE("process linux: how a child ended: exit, a signal, the timeout, abandoned") {
    CHECK(run([](int) { std::exit(3); }).outcome.exit_code == 3);
    CHECK(run([](int) { std::_Exit(0); }).outcome.end == End::exited);
    const auto segv = run([](int) { raise(SIGSEGV); });
    CHECK(segv.outcome.end == End::signaled);
    CHECK(segv.outcome.signal == SIGSEGV);
    CHECK(run([](int) { std::abort(); }).outcome.signal == SIGABRT);
    const auto start = std::chrono::steady_clock::now();
    const auto hung = run([](int) { std::this_thread::sleep_for(std::chrono::seconds(30)); }, 0.3);
    CHECK(hung.outcome.end == End::timed_out);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    int ticks = 0;
    const auto abandoned = run([](int) { std::this_thread::sleep_for(std::chrono::seconds(30)); },
                               0, [&] { return ++ticks == 3; });
    CHECK(abandoned.outcome.end == End::abandoned);
    CHECK(ticks == 3);
}

TEST_CASE("process linux: a child gets the default actions back and an open mask") {
    sigset_t term;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    sigprocmask(SIG_BLOCK, &term, nullptr);
    watch_interrupt_signals();
    const auto c = run([](int) { raise(SIGTERM); });
    unwatch_interrupt_signals();
    sigprocmask(SIG_UNBLOCK, &term, nullptr);
    CHECK(c.outcome.end == End::signaled);
    CHECK(c.outcome.signal == SIGTERM);
}

TEST_CASE(
    "process linux: a signal ignored before watching began stays ignored, in children too "
    "(nohup)") {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGTERM, &ignore, nullptr);
    watch_interrupt_signals();
    struct sigaction during {};
    sigaction(SIGTERM, nullptr, &during);
    const auto c = run([](int) { raise(SIGTERM); });
    unwatch_interrupt_signals();
    signal(SIGTERM, SIG_DFL);
    CHECK((during.sa_handler == SIG_IGN));
    CHECK(c.outcome.end == End::exited);
    CHECK(c.outcome.exit_code == 0);
}

TEST_CASE("process linux: signal names") {
    CHECK(signal_name(SIGSEGV) == "SIGSEGV");
    CHECK(signal_name(SIGPIPE) == "SIGPIPE");
    CHECK(signal_name(SIGINT) == "SIGINT");
    CHECK(signal_name(64) == "signal 64");
    CHECK(signal_abbrev(64) == nullptr);
    CHECK(broken_pipe_signal() == SIGPIPE);
    CHECK(is_interrupt_signal(SIGHUP));
    CHECK_FALSE(is_interrupt_signal(SIGSEGV));
}

TEST_CASE("process linux: an interruption signal is recorded and wakes the watcher, never kills") {
    struct sigaction before {};
    sigaction(SIGINT, nullptr, &before);
    watch_interrupt_signals();
    CHECK(first_interrupt_signal() == 0);
    CHECK(wait_for_signal(0.01) == 0);
    raise(SIGTERM);
    raise(SIGINT);
    CHECK(first_interrupt_signal() == SIGTERM);
    CHECK(wait_for_signal(1) == SIGTERM);
    CHECK(wait_for_signal(1) == SIGINT);
    wake_signal_wait();
    CHECK(wait_for_signal(1) == -1);
    unwatch_interrupt_signals();
    struct sigaction now {};
    sigaction(SIGINT, nullptr, &now);
    CHECK((now.sa_handler == before.sa_handler));
}
