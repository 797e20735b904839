// End to end, hostile input round three (issue 44), the files and paths: output paths through
// another user's link at any depth, --keep directories another user controls or another
// glint-compare is using, a case that calls chdir(), planted and malformed journals
// (os/linux/output_target.cpp, os/linux/kept_directory.cpp, engine/compare/alternate.cpp,
// engine/runner/keeping/journal.cpp).
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace glint::test;  // processes, fixtures, temporary directories
using glint::engine::Json;

namespace {

constexpr uid_t kOtherUid = 65534;  // "nobody": a user that is not the test's

// A sticky world-writable directory (a /tmp) in `dir`.
std::string sticky_dir(const TempDir& dir) {
    const std::string path = dir.file("sticky");
    REQUIRE(mkdir(path.c_str(), 0777) == 0);
    REQUIRE(chmod(path.c_str(), 01777) == 0);
    return path;
}

// A symlink at `link` to `to` that another user owns; false when this user may not give it away.
bool their_link(const std::string& to, const std::string& link) {
    REQUIRE(symlink(to.c_str(), link.c_str()) == 0);
    return lchown(link.c_str(), kOtherUid, static_cast<gid_t>(-1)) == 0;
}

std::vector<std::string> quick(const std::string& fixture, std::vector<std::string> flags) {
    std::vector<std::string> argv{fixture_path(fixture), "--bench", "--bench-min-time=0.05"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return argv;
}

void put_file(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

TEST_CASE(
    "hostile files: an output path through another user's symlink to a directory in a sticky "
    "directory is refused before measuring") {
    TempDir dir{"glint-hostile-files"};
    const std::string sticky = sticky_dir(dir), secret = dir.file("private");
    REQUIRE(mkdir(secret.c_str(), 0700) == 0);
    put_file(secret + "/victim.json", "secret");
    if (!their_link(secret, sticky + "/link2"))
        return glint::test::skip("lchown to another uid needs root or CAP_CHOWN");
    const std::string json = sticky + "/link2/victim.json";
    auto r = run_process(quick("basic", {"--bench-json=" + json}));
    CHECK(r.exit_code == 2);
    CHECK(r.err == "glint: error: --bench-json: refusing to follow the symlink '" + sticky +
                       "/link2' on the way to '" + json +
                       "': user 65534 owns it in the sticky, world-writable directory '" + sticky +
                       "' (it could point anywhere); remove it or choose another path\n");
    CHECK(r.out.empty());
    CHECK(read_file(secret + "/victim.json") == "secret");
    // Deeper: the caller's own link whose target goes through theirs.
    fs::create_symlink(sticky + "/link2/sub", dir.path / "mine");
    auto deep = run_process(quick("basic", {"--bench-html=" + dir.file("mine") + "/x.html"}));
    CHECK(deep.exit_code == 2);
    CHECK(contains(deep.err, "refusing to follow the symlink '" + sticky + "/link2' on the way"));
}

TEST_CASE(
    "hostile files: glint-compare --keep refuses a directory another user owns or may write, and "
    "another user's symlink in a sticky directory") {
    TempDir dir{"glint-hostile-files"};
    const std::string basic = fixture_path("basic");
    const std::string theirs = dir.file("theirs");
    REQUIRE(mkdir(theirs.c_str(), 0755) == 0);
    if (chown(theirs.c_str(), kOtherUid, static_cast<gid_t>(-1)) != 0)
        return glint::test::skip("chown to another uid needs root or CAP_CHOWN");
    auto r = run_process({compare_path(), "--alternate=1", "--keep=" + theirs, basic, basic});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "glint-compare: error: --keep='" + theirs + "': user 65534 owns '" + theirs +
                       "' and could replace what is written there; choose a directory of your "
                       "own\n");
    CHECK(fs::is_empty(theirs));  // nothing ran, nothing was made there

    const std::string open = dir.file("open");
    REQUIRE(mkdir(open.c_str(), 0700) == 0);
    REQUIRE(chmod(open.c_str(), 0777) == 0);
    r = run_process({compare_path(), "--alternate=1", "--keep=" + open, basic, basic});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "'" + open +
                              "' may be written by every user, who could replace what "
                              "is written there; chmod go-w it or choose another"));
    CHECK(fs::is_empty(open));

    const std::string sticky = sticky_dir(dir), mine = dir.file("mine");
    REQUIRE(mkdir(mine.c_str(), 0700) == 0);
    REQUIRE(their_link(mine, sticky + "/keep"));
    r = run_process({compare_path(), "--alternate=1", "--keep=" + sticky + "/keep", basic, basic});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "refusing to follow the symlink '" + sticky + "/keep': user 65534"));
    CHECK(fs::is_empty(mine));
}

TEST_CASE(
    "hostile files: a second glint-compare --alternate on a --keep directory in use is refused, "
    "and the first goes on") {
    TempDir dir{"glint-hostile-files"};
    const std::string slow = dir.file("slow.sh"), pid_file = dir.file("pid");
    put_file(slow, "#!/bin/sh\necho $$ > " + pid_file + ".new && mv " + pid_file + ".new " +
                       pid_file + "\nexec sleep 60\n");
    chmod(slow.c_str(), 0755);
    const std::string keep = dir.file("runs"), basic = fixture_path("basic");
    BackgroundProcess first({compare_path(), "--alternate=1", "--keep=" + keep, slow, slow});
    REQUIRE(wait_until([&] { return fs::exists(pid_file); }));
    auto second = run_process({compare_path(), "--alternate=1", "--keep=" + keep, basic, basic});
    CHECK(second.exit_code == 2);
    CHECK(second.err == "glint-compare: error: --keep='" + keep +
                            "': another glint-compare --alternate is running with it (it holds " +
                            keep +
                            "/.glint-alternate locked): wait for it to end or choose "
                            "another directory\n");
    CHECK(fs::exists(keep + "/base-1.log"));  // the first run's files are left alone
    CHECK_FALSE(fs::exists(keep + "/new-1.log"));
    ::kill(first.pid(), SIGTERM);
    const auto r = first.wait(60);
    CHECK(r.term_signal == SIGTERM);
    CHECK_FALSE(contains(r.err, "wrote no document"));
}

TEST_CASE(
    "hostile files: a case that calls chdir() moves neither the relative outputs nor the "
    "journal") {
    TempDir dir{"glint-hostile-files"};
    const std::string start = dir.file("start"), elsewhere = dir.file("elsewhere");
    REQUIRE(mkdir(start.c_str(), 0700) == 0);
    REQUIRE(mkdir(elsewhere.c_str(), 0700) == 0);
    std::vector<std::string> argv{"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", start};
    for (const auto& a : quick("chdir", {"--bench-json=rel.json", "--bench-html=rel.html"}))
        argv.push_back(a);
    auto r = run_process(argv, {"GLINT_FIXTURE_CHDIR=" + elsewhere});
    CHECK(r.exit_code == 0);
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(start)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string>{"rel.html", "rel.json"});
    CHECK(fs::is_empty(elsewhere));
    CHECK(Json::parse(read_file(start + "/rel.json")).at("rows").size() == 2);
}

TEST_CASE(
    "hostile files: a planted file larger than a journal is told from one by its first line, "
    "both by the stale-journal scan and by --recover-journal") {
    TempDir dir{"glint-hostile-files"};
    const std::string planted = dir.file("out.json.journal.AbCdEf");
    put_file(planted, "not a journal\n");
    fs::resize_file(planted, (std::uintmax_t{1} << 30) + 1);  // sparse: no disk used
    auto r = run_process({fixture_path("slow"), "--recover-journal=" + planted});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "glint: error: --recover-journal: '" + planted +
                       "' is not a glint journal (its first line must be {\"glintJournal\": 1, "
                       "...})\n");
    auto scan = run_process({fixture_path("slow"), "--bench", "--filter=later",
                             "--bench-json=" + dir.file("out.json")});
    CHECK(scan.exit_code == 0);
    CHECK(contains(scan.err, "'" + planted + "' is named like a journal"));
    CHECK(contains(scan.err, "is not a glint journal"));

    // A journal whose tail is a hole (a crash left it unwritten): read up to it, not past it.
    const std::string holed = dir.file("holed.journal");
    put_file(holed, "{\"glintJournal\": 1, \"meta\": {}}\n{\"row\": {\"name\": \"a\"}}\n");
    fs::resize_file(holed, std::uintmax_t{64} << 20);
    auto h = run_process({fixture_path("slow"), "--recover-journal=" + holed});
    CHECK(h.exit_code == 0);
    CHECK(h.err == "glint: recovered 1 row from '" + holed + "' (1 cut-short line skipped)\n");
}

TEST_CASE(
    "hostile files: --recover-journal drops rows that are not rows and second rows of one "
    "identity, says which, and writes a document glint-compare reads") {
    TempDir dir{"glint-hostile-files"};
    const std::string journal = dir.file("out.json.journal.Zz9Yy8"), json = dir.file("r.json");
    put_file(journal,
             "{\"glintJournal\": 1, \"meta\": {}}\n"
             "{\"columns\": []}\n"
             "{\"row\": \"just a string\"}\n"
             "{\"row\": 5}\n"
             "{\"row\": {\"registration\": \"r\", \"name\": \"a\", \"medianNs\": 1.5}}\n"
             "{\"row\": {\"registration\": \"r\", \"name\": \"a\", \"medianNs\": 2.5}}\n"
             "{\"row\": {\"registration\": \"r\", \"name\": \"b\", \"medianNs\": \"slow\"}}\n"
             "{\"row\": {\"registration\": \"r\", \"name\": \"c\", \"medianNs\": 3.5}}\n");
    auto r =
        run_process({fixture_path("slow"), "--recover-journal=" + journal, "--bench-json=" + json});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.err, "dropped line 3: the row is not an object\n"));
    CHECK(contains(r.err, "dropped line 4: the row is not an object\n"));
    CHECK(contains(r.err, "dropped line 6: a second row r/a (the first is kept)\n"));
    CHECK(contains(r.err, "dropped line 7: the row \"medianNs\" is not a number\n"));
    CHECK(contains(r.err, "glint: recovered 2 rows from '" + journal + "' into '" + json +
                              "' (4 rows dropped: no document could hold them)\n"));
    const Json doc = Json::parse(read_file(json));
    CHECK(doc.at("rows").size() == 2);
    CHECK(doc.at("meta").at("interrupted").at("droppedRows").as_number() == 4);
    auto compared = run_process({compare_path(), json, json});
    CHECK(compared.exit_code == 0);
    CHECK_FALSE(contains(compared.err, "error"));

    // One row: its note says so in the singular.
    const std::string one = dir.file("one.json.journal.Aa1Bb2");
    put_file(one, "{\"glintJournal\": 1, \"meta\": {}}\n{\"row\": {\"name\": \"a\"}}\n");
    auto note = run_process({fixture_path("slow"), "--bench", "--filter=later",
                             "--bench-json=" + dir.file("one.json")});
    CHECK(contains(note.err, "its 1 finished row is in the journal '" + one + "'"));
}
