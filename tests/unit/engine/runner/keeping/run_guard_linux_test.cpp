// The run guard and the table guard: interruption at checkpoints, the watcher's timeout, the
// exit hook, and a table ended from another thread (engine/runner/keeping/run_guard.hpp,
// table_guard.hpp). The runner's threads are also checked under ThreadSanitizer
// (tests/sanitize: this file is part of that build).
#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "../../report/rows.hpp"
#include "engine/runner/keeping/run_guard.hpp"
#include "engine/runner/keeping/table_guard.hpp"
#include "os/process.hpp"
#include "support/device_node.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace glint::engine;
using namespace glint::engine::report::testing;

namespace {

// Records the calls it gets.
class CallLog final : public TableReporter {
  public:
    void header(const std::vector<std::string>&) override { calls.push_back("header"); }
    void begin_group(const GroupInfo&) override { calls.push_back("begin"); }
    void case_started(const std::string& name) override { calls.push_back("start " + name); }
    void case_progress() override { ++progress; }
    void case_finished(const Row& row) override { calls.push_back("row " + row.name); }
    void end_group() override { calls.push_back("end"); }
    std::vector<std::string> calls;
    int progress = 0;
};

// A reporter that writes a line to its stream and flushes it.
class Writer final : public TableReporter {
  public:
    explicit Writer(std::FILE* out) : out_(out) {}
    void header(const std::vector<std::string>&) override { put(); }
    void begin_group(const GroupInfo&) override { put(); }
    void case_started(const std::string&) override {}
    void case_finished(const Row&) override { put(); }
    void end_group() override { put(); }

  private:
    void put() {
        std::fputs("a line of the table\n", out_);
        std::fflush(out_);
    }
    std::FILE* out_;
};

}  // namespace

TEST_CASE("table guard: another thread ends the group in progress, and later calls do nothing") {
    CallLog log;
    TableGuard table(log, stdout);
    table.begin_group({});
    table.case_started("a");
    table.case_finished(error_row("a", "x"));
    std::thread other([&] { CHECK(table.abandon(std::chrono::milliseconds(100))); });
    other.join();
    table.case_started("b");
    table.case_finished(error_row("b", "x"));
    table.end_group();
    CHECK(log.calls == std::vector<std::string>{"begin", "start a", "row a", "end"});
}

TEST_CASE("table guard: the run's own stop ends only a group that is open") {
    CallLog log;
    TableGuard table(log, stdout);
    table.end_open_group();
    table.begin_group({});
    table.end_open_group();
    table.end_open_group();
    CHECK(log.calls == std::vector<std::string>{"begin", "end"});
}

TEST_CASE("table guard: a failed write is remembered") {
    glint::test::TempDir dir{"glint-table-guard"};
    std::string why;
    const auto device = glint::test::make_char_device(dir, glint::test::kFullDevice, why);
    if (!device) return glint::test::skip(why);
    std::FILE* full = std::fopen(device->c_str(), "w");
    REQUIRE(full);
    Writer to_full(full);
    TableGuard table(to_full, full);
    table.header({"x"});
    CHECK(table.write_error() == ENOSPC);
    std::fclose(full);
}

TEST_CASE("table guard: a closed pipe asks the run to stop") {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    close(fds[0]);
    struct sigaction ignore {
    }, before{};
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &before);
    std::FILE* pipe_out = fdopen(fds[1], "w");
    Writer to_pipe(pipe_out);
    TableGuard piped(to_pipe, pipe_out);
    int stops = 0;
    piped.on_broken_pipe = [&] { ++stops; };
    piped.begin_group({});
    piped.end_group();
    CHECK(piped.write_error() == EPIPE);
    CHECK(stops == 1);
    std::fclose(pipe_out);
    sigaction(SIGPIPE, &before, nullptr);
}

TEST_CASE("run guard: a signal stops the run at its next checkpoint, naming the signal") {
    CHECK(RunGuard::Settings{}.grace_s == 2);  // how long a case gets to reach a checkpoint
    CallLog log;
    TableGuard table(log, stdout);
    RunRecord record;
    std::string note;
    record.start(nullptr, Json::object(), note);
    RunGuard guard({0, true, 5}, record, table);
    guard.case_started("first", {});
    guard.checkpoint();  // nothing asked yet
    guard.row_finished(error_row("first", "x"));
    raise(SIGTERM);
    CHECK(guard.poll_stop() == SIGTERM);
    CHECK_THROWS_AS(guard.checkpoint(), Interrupted);
    try {
        guard.checkpoint();
    } catch (const Interrupted& stop) {
        CHECK(stop.signal == SIGTERM);
    }
    guard.run_over();
    CHECK(record.finished_rows() == 1);
}

namespace {

// Runs `body` with a guard in a child process (the guard may end it), then ends the run.
glint::os::ChildOutcome outcome_of(const std::function<void(RunGuard&)>& body,
                                   RunGuard::Settings settings = {0.2, true, 5}) {
    glint::os::ChildWatch watch;
    watch.timeout_s = 20;
    return glint::os::run_child(
        [&](int) {
            CallLog log;
            TableGuard table(log, stdout);
            RunRecord record;
            std::string note;
            record.start(nullptr, Json::object(), note);
            RunGuard guard(settings, record, table);
            body(guard);
            guard.run_over();
        },
        watch);
}

}  // namespace

TEST_CASE(
    "run guard: the watcher ends a case past its timeout, and exit() inside a case fails the run") {
    const auto hung = outcome_of([](RunGuard& guard) {
        guard.case_started("hangs", {});
        std::this_thread::sleep_for(std::chrono::seconds(10));
    });
    CHECK(hung.end == glint::os::ChildOutcome::End::exited);
    CHECK(hung.exit_code == 1);
    const auto exits = outcome_of([](RunGuard& guard) {
        guard.case_started("exits", {});
        std::exit(0);
    });
    CHECK(exits.exit_code == 1);
    const auto ignored = outcome_of(
        [](RunGuard& guard) {
            guard.case_started("never stops", {});
            guard.request_stop(SIGINT);
            std::this_thread::sleep_for(std::chrono::seconds(10));
        },
        {0, true, 0.2});
    CHECK(ignored.exit_code == 128 + SIGINT);  // not waited for past the grace period
    const auto fine = outcome_of([](RunGuard& guard) {
        guard.case_started("quick", {});
        guard.row_finished(error_row("quick", "x"));
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
    });
    CHECK(fine.exit_code == 0);  // between cases, no timeout runs
}

TEST_CASE("run guard: a second signal, or one after the cases, ends the run at once") {
    const RunGuard::Settings long_grace{0, true, 100};  // a grace nobody waits for
    const auto twice = outcome_of(
        [](RunGuard& guard) {
            guard.case_started("never stops", {});
            raise(SIGINT);  // the handler has run when raise returns: two signals, not one pending
            raise(SIGINT);
            std::this_thread::sleep_for(std::chrono::seconds(10));
        },
        long_grace);
    CHECK(twice.exit_code == 128 + SIGINT);
    const auto after = outcome_of(
        [](RunGuard& guard) {
            guard.run_over();
            raise(SIGTERM);  // writing the outputs, say
            std::this_thread::sleep_for(std::chrono::seconds(10));
        },
        long_grace);
    CHECK(after.exit_code == 128 + SIGTERM);
}
