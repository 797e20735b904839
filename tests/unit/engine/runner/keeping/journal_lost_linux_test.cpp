// Hostile: a journal that cannot be written (a full disk, injected through the os/linux/sys.hpp
// seam) is removed and named by no message, and the run's rows still reach its document
// (engine/runner/keeping/run_record.hpp).
#include <doctest/doctest.h>

#include <cerrno>
#include <string>

#include "../../report/rows.hpp"
#include "engine/runner/keeping/run_record.hpp"
#include "os/linux/sys.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using namespace glint::engine;
using namespace glint::engine::report::testing;
namespace linux_ = glint::os::linux_;
using glint::test::TempDir;

namespace {

ssize_t disk_full(int, const void*, std::size_t) {
    errno = ENOSPC;
    return -1;
}

// Every write fails with ENOSPC while one of these lives.
struct FullDisk {
    static linux_::SysTable table() {
        linux_::SysTable t = linux_::sys();
        t.write = &disk_full;
        return t;
    }
    linux_::SysTable failing = table();  // ScopedSys keeps a pointer to it: it must outlive scope
    linux_::ScopedSys scope{failing};
};

glint::os::OutputTarget target(const std::string& path) {
    std::string problem;
    auto t = glint::os::resolve_output(path, problem);
    REQUIRE(t.has_value());
    return *t;
}

bool has_journal(const TempDir& dir) {
    for (const auto& name : dir.entries())
        if (name.find(".journal.") != std::string::npos) return true;
    return false;
}

Row finished(const std::string& name) {
    Row r = timed_row(name, batched(2, 8, 1.5, 0.1, 1.0, 2.0), {});
    r.timing->sample_ns = {1.0, 2.0};
    return r;
}

}  // namespace

TEST_CASE(
    "hostile: a journal whose first line cannot be written is removed and the note says so, "
    "naming no journal that holds rows") {
    TempDir dir{"glint-journal-lost"};
    const auto out = target(dir.file("out.json"));
    RunRecord record;
    std::string note;
    {
        FullDisk full;
        record.start(&out, Json::object(), note);
    }
    CHECK(note.find("cannot write the journal '" + dir.file("out.json") + ".journal.") == 0);
    CHECK(note.find(": No space left on device; it is removed and the run goes on without one") !=
          std::string::npos);
    CHECK(record.journal_path().empty());  // no later message names it
    CHECK_FALSE(has_journal(dir));
    record.row_finished(finished("a"));
    CHECK_FALSE(record.take_journal_problem());  // said once, in the note
    CHECK_FALSE(has_journal(dir));
}

TEST_CASE(
    "hostile: a journal that fills the disk mid-run is removed, said once, and the rows still "
    "reach the document") {
    TempDir dir{"glint-journal-lost"};
    const auto out = target(dir.file("out.json"));
    RunRecord record;
    std::string note;
    record.start(&out, Json::object(), note);
    REQUIRE(note.empty());
    record.row_finished(finished("a"));
    CHECK(has_journal(dir));
    CHECK_FALSE(record.take_journal_problem());
    {
        FullDisk full;
        record.row_finished(finished("b"));
    }
    const auto problem = record.take_journal_problem();
    REQUIRE(problem);
    CHECK(problem->find("No space left on device") != std::string::npos);
    CHECK_FALSE(record.take_journal_problem());
    CHECK(record.journal_path().empty());
    CHECK_FALSE(has_journal(dir));
    record.row_finished(finished("c"));
    CHECK(record.finished_rows() == 3);
    REQUIRE(record.write_abnormal_end("SIGSEGV"));  // the disk has room again
    const Json doc = Json::parse(glint::test::read_file(dir.file("out.json")));
    CHECK(doc.at("rows").size() == 3);
}
