// End to end: journals glint did not write, or that a live run still holds, beside a
// --bench-json target and given to --recover-journal (engine/runner/keeping/journal.hpp).
#include <doctest/doctest.h>

#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

using glint::test::BackgroundProcess;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;
using glint::test::TempDir;
using glint::test::wait_until;
namespace fs = std::filesystem;

namespace {

// A journal whose line `deep_line` (1 or 2) nests `depth` arrays.
void plant_journal(const std::string& path, std::size_t depth, int deep_line) {
    const std::string deep =
        "{\"row\": " + std::string(depth, '[') + std::string(depth, ']') + "}\n";
    std::ofstream out(path, std::ios::binary);
    out << (deep_line == 1 ? deep : "{\"glintJournal\": 1, \"meta\": {}}\n");
    if (deep_line == 2) out << deep;
}

}  // namespace

TEST_CASE(
    "e2e journal: a planted journal nesting 100000 deep is named and skipped, and "
    "--recover-journal refuses it") {
    TempDir dir{"glint-e2e-journal"};
    const std::string json = dir.file("out.json");
    const std::string planted = dir.file("out.json.journal.Xq3k9Z");
    plant_journal(planted, 100000, 2);
    auto run =
        run_process({fixture_path("slow"), "--bench", "--filter=later", "--bench-json=" + json});
    CHECK(run.exit_code == 0);
    CHECK(contains(run.err, "'" + planted + "' is named like a journal"));
    CHECK(contains(run.err, "skipped"));
    CHECK(fs::exists(json));  // measured and written

    for (int line : {1, 2}) {
        plant_journal(planted, 200000, line);
        auto r = run_process({fixture_path("slow"), "--recover-journal=" + planted});
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err,
                       "line " + std::to_string(line) +
                           " nests deeper than 64 levels: not a journal glint wrote (delete it)"));
        CHECK(r.out.empty());
    }
}

TEST_CASE(
    "e2e journal: --recover-journal on a journal larger than glint reads exits 2 and says so") {
    TempDir dir{"glint-e2e-journal"};
    const std::string huge = dir.file("out.json.journal.AbCdEf");
    { std::ofstream(huge) << "{\"glintJournal\": 1}\n"; }
    fs::resize_file(huge, (std::uintmax_t{1} << 30) + 1);  // sparse: no disk used
    auto r = run_process({fixture_path("slow"), "--recover-journal=" + huge});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "glint reads: too large to recover (delete it"));
    CHECK(r.out.empty());
}

TEST_CASE("e2e journal: --recover-journal warns when a running glint still holds the journal") {
    TempDir dir{"glint-e2e-journal"};
    const std::string json = dir.file("out.json");
    BackgroundProcess run({fixture_path("slow"), "--bench", "--bench-json=" + json});
    std::string journal;
    REQUIRE(wait_until([&] {
        for (const auto& e : dir.entries())
            if (e.rfind("out.json.journal.", 0) == 0 &&
                contains(read_file(dir.file(e)), "{\"row\": "))
                journal = dir.file(e);
        return !journal.empty();
    }));
    auto live = run_process({fixture_path("slow"), "--recover-journal=" + journal,
                             "--bench-json=" + dir.file("r.json")});
    kill(run.pid(), SIGTERM);
    (void)run.wait();
    CHECK(live.exit_code == 0);
    CHECK(contains(live.err, "a running glint still holds '" + journal + "'"));
}
