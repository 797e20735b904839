// os/files.hpp on Linux: output targets, the replace protocol, bounded reads, the journal and
// the async-signal-safe output.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "os/files.hpp"

#include "support/device_node.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using namespace glint::os;
namespace fs = std::filesystem;
using glint::test::make_char_device;
using glint::test::TempDir;

namespace {

OutputTarget resolved(const std::string& path) {
    std::string problem;
    auto target = resolve_output(path, problem);
    INFO(problem);
    REQUIRE(target.has_value());
    return *target;
}

std::string refusal(const std::string& path) {
    std::string problem;
    CHECK_FALSE(resolve_output(path, problem).has_value());
    return problem;
}

}  // namespace

TEST_CASE("files linux: each kind of path resolves to how it is written") {
    TempDir dir{"glint-files-test"};
    CHECK(resolved(dir.file("new.json")).mode == OutputMode::replace);
    std::ofstream(dir.file("old.json")) << "x";
    CHECK(resolved(dir.file("old.json")).mode == OutputMode::replace);
    REQUIRE(mkfifo(dir.file("fifo").c_str(), 0600) == 0);
    CHECK(resolved(dir.file("fifo")).mode == OutputMode::in_place);
    std::string why;
    const auto null_device = glint::test::make_char_device(dir, glint::test::kNullDevice, why);
    if (null_device) CHECK(resolved(*null_device).mode == OutputMode::in_place);
    else MESSAGE(why);
    // A link is followed to its final target, which is what gets replaced.
    fs::create_symlink("old.json", dir.path / "one");
    fs::create_symlink(dir.file("one"), dir.path / "two");
    const OutputTarget linked = resolved(dir.file("two"));
    CHECK(linked.mode == OutputMode::replace);
    CHECK(linked.path == dir.file("old.json"));
    CHECK(linked.given == dir.file("two"));
    // A link to the standard output is the standard output (descriptor 1), never a file to
    // replace. (Only links the test made name the device: the output code never gets the node.)
    fs::create_symlink("/dev/stdout", dir.path / "to-stdout");
    const OutputTarget out = resolved(dir.file("to-stdout"));
    CHECK(out.mode == OutputMode::descriptor);
    CHECK(out.fd == 1);
    fs::create_symlink("loop", dir.path / "loop");
    CHECK(refusal(dir.file("loop")).find("too many levels of symlinks") != std::string::npos);

    CHECK(refusal(dir.path.string()) ==
          "'" + dir.path.string() + "' is a directory, not a file glint can write");
    CHECK(refusal(dir.file("absent/x.json")) == "cannot write '" + dir.file("absent/x.json") +
                                                    "': directory '" + dir.file("absent") +
                                                    "' does not exist");
    CHECK(refusal(dir.file("old.json/x.json")).find("is not a directory") != std::string::npos);
    CHECK(refusal("") == "the output path is empty");
}

TEST_CASE(
    "files linux: a replace writes the whole text, keeps the file's permissions and leaves nothing "
    "beside it") {
    TempDir dir{"glint-files-test"};
    const std::string path = dir.file("results.json");
    CHECK_FALSE(write_output(resolved(path), "first\n").has_value());
    CHECK(glint::test::read_file(path) == "first\n");
    chmod(path.c_str(), 0640);
    CHECK_FALSE(write_output(resolved(path), "second\n").has_value());
    CHECK(glint::test::read_file(path) == "second\n");
    struct stat st {};
    REQUIRE(stat(path.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0640);
    CHECK(dir.entries() == std::vector<std::string>{"results.json"});
}

TEST_CASE("files linux: a failed replace leaves the target as it was and no temporary file") {
    TempDir dir{"glint-files-test"};
    const std::string path = dir.file("results.json");
    CHECK_FALSE(write_output(resolved(path), "kept\n").has_value());
    const OutputTarget target = resolved(path);
    fs::remove_all(dir.path / "gone");
    OutputTarget missing_dir = target;
    missing_dir.path = dir.file("gone/results.json");
    missing_dir.given = missing_dir.path;
    auto error = write_output(missing_dir, "x");
    REQUIRE(error.has_value());
    CHECK(*error == "cannot write '" + missing_dir.path + "': No such file or directory");
    CHECK(glint::test::read_file(path) == "kept\n");
    CHECK(dir.entries() == std::vector<std::string>{"results.json"});
}

TEST_CASE("files linux: in-place targets are written, never replaced") {
    TempDir dir{"glint-files-test"};
    const std::string fifo = dir.file("fifo");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] { received = glint::test::read_file(fifo); });
    CHECK_FALSE(write_output(resolved(fifo), "through the pipe\n").has_value());
    reader.join();
    CHECK(received == "through the pipe\n");
    struct stat st {};
    REQUIRE(lstat(fifo.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
}

TEST_CASE("files linux: character devices are written in place and stay devices") {
    TempDir dir{"glint-files-test"};
    std::string why;
    const auto full = make_char_device(dir, glint::test::kFullDevice, why);
    if (!full) return glint::test::skip(why);
    const auto null = make_char_device(dir, glint::test::kNullDevice, why);
    REQUIRE_MESSAGE(null, why);
    auto error = write_output(resolved(*full), "x");
    REQUIRE(error.has_value());
    CHECK(*error == "cannot write '" + *full + "': No space left on device");
    CHECK_FALSE(write_output(resolved(*null), "x").has_value());
    CHECK_FALSE(probe_output(resolved(*null)).has_value());
    for (const auto& [path, minor] : {std::pair{*full, 7u}, std::pair{*null, 3u}}) {
        struct stat st {};
        REQUIRE(lstat(path.c_str(), &st) == 0);
        CHECK(S_ISCHR(st.st_mode));
        CHECK(st.st_rdev == makedev(1, minor));
    }
    CHECK(dir.entries() == std::vector<std::string>{"full", "null"});  // no journal, no temporary
}

TEST_CASE("files linux: the probe finds a directory nobody may create files in, for root too") {
    TempDir dir{"glint-files-test"};
    // A name the directory takes (250 bytes) whose temporary sibling it cannot (NAME_MAX is 255):
    // the directory is writable by its mode bits, so only a real creation finds the refusal.
    const std::string longest = dir.file(std::string(250, 'n'));
    CHECK(*probe_output(resolved(longest)) == "cannot write '" + longest +
                                                  "': cannot create a file in '" +
                                                  dir.path.string() + "': File name too long");
    CHECK_FALSE(probe_output(resolved(dir.file("ok.json"))).has_value());
    CHECK(dir.entries().empty());  // the probe's file is gone
    OutputTarget closed{"fd", "fd", OutputMode::descriptor, 1000};
    CHECK(probe_output(closed)->find("descriptor 1000 is not open for writing") !=
          std::string::npos);
}

TEST_CASE("files linux: only regular files up to the bound are read, without blocking on a FIFO") {
    TempDir dir{"glint-files-test"};
    std::string text;
    std::ofstream(dir.file("small")) << "0123456789";
    CHECK_FALSE(read_regular_file(dir.file("small"), 10, text).has_value());
    CHECK(text == "0123456789");
    CHECK(read_regular_file(dir.file("small"), 9, text)->message ==
          "'" + dir.file("small") + "' is 10 bytes, more than the 9 bytes glint reads");
    REQUIRE(mkfifo(dir.file("fifo").c_str(), 0600) == 0);
    CHECK(read_regular_file(dir.file("fifo"), 100, text)->message ==
          "'" + dir.file("fifo") + "' is a FIFO (named pipe), not a regular file");
    CHECK(read_regular_file("/dev/zero", 100, text)->message ==
          "'/dev/zero' is a character device, not a regular file");
    CHECK(read_regular_file(dir.path.string(), 100, text)->message.find("is a directory") !=
          std::string::npos);
    const auto missing = read_regular_file(dir.file("absent"), 100, text);
    CHECK(missing->missing);
    CHECK(missing->message ==
          "cannot read '" + dir.file("absent") + "': No such file or directory");
}

TEST_CASE("files linux: a journal is unpredictable, locked while held, stale once let go") {
    TempDir dir{"glint-files-test"};
    const OutputTarget target = resolved(dir.file("out.json"));
    std::string problem;
    auto journal = JournalFile::create(target, problem);
    REQUIRE(journal.has_value());
    CHECK(journal->path().rfind(dir.file("out.json.journal."), 0) == 0);
    CHECK(journal->path().size() == dir.file("out.json.journal.").size() + 6);
    CHECK(journal->append("{\"a\": 1}"));
    CHECK(journal->append(std::string(5000, 'x')));  // longer than the one-write buffer
    CHECK(journal->sync());
    CHECK(glint::test::read_file(journal->path()) ==
          "{\"a\": 1}\n" + std::string(5000, 'x') + "\n");
    CHECK(stale_journals(target).empty());  // held by this process
    {
        // A killed run: its file, and nobody holding the lock.
        std::ofstream(dir.file("out.json.journal.abcdef")) << "{\"glintJournal\": 1}\n";
        std::ofstream(dir.file("other.json.journal.abcdef")) << "";
    }
    CHECK(stale_journals(target) == std::vector<std::string>{dir.file("out.json.journal.abcdef")});
    const std::string held = journal->path();
    journal->remove();
    CHECK_FALSE(fs::exists(held));
    chmod(dir.path.c_str(), 0500);
    if (geteuid() != 0) {
        CHECK_FALSE(JournalFile::create(target, problem).has_value());
        CHECK(problem.find("cannot create a journal beside") != std::string::npos);
    }
}

TEST_CASE("files linux: the async-signal-safe output replaces the target the same way") {
    TempDir dir{"glint-files-test"};
    const std::string path = dir.file("out.json");
    std::ofstream(path) << "old";
    const EmergencyOutput out = prepare_emergency_output(resolved(path));
    REQUIRE(out.ready);
    CHECK(std::string(out.temp).rfind(dir.file(".out.json."), 0) == 0);
    CHECK_FALSE(fs::exists(out.temp));  // named, not created, until needed
    const int fd = emergency_open(out);
    REQUIRE(fd >= 0);
    CHECK(emergency_put(fd, "new\n", 4));
    CHECK(emergency_commit(out, fd, true));
    CHECK(glint::test::read_file(path) == "new\n");
    CHECK(dir.entries() == std::vector<std::string>{"out.json"});
    // A failed write keeps the old document and removes its temporary file.
    const EmergencyOutput again = prepare_emergency_output(resolved(path));
    const int fd2 = emergency_open(again);
    CHECK_FALSE(emergency_commit(again, fd2, false));
    CHECK(glint::test::read_file(path) == "new\n");
    CHECK(dir.entries() == std::vector<std::string>{"out.json"});
    // A FIFO nobody reads is not waited for.
    REQUIRE(mkfifo(dir.file("fifo").c_str(), 0600) == 0);
    CHECK(emergency_open(prepare_emergency_output(resolved(dir.file("fifo")))) == -1);
}

namespace {

constexpr uid_t kOtherUid = 65534;  // "nobody": a user that is not the test's

// A sticky world-writable directory (a /tmp) inside `dir`, owned by `owner`.
std::string sticky_dir(const TempDir& dir, const std::string& name, uid_t owner) {
    const std::string path = dir.file(name);
    REQUIRE(mkdir(path.c_str(), 0777) == 0);
    REQUIRE(chmod(path.c_str(), 01777) == 0);
    REQUIRE(chown(path.c_str(), owner, static_cast<gid_t>(-1)) == 0);
    return path;
}

// A symlink at `link` to `to`, owned by `owner`; false when this user may not give it away.
bool owned_link(const std::string& to, const std::string& link, uid_t owner) {
    REQUIRE(symlink(to.c_str(), link.c_str()) == 0);
    return lchown(link.c_str(), owner, static_cast<gid_t>(-1)) == 0;
}

}  // namespace

TEST_CASE(
    "files linux: a symlink another user planted in a sticky world-writable directory is not "
    "followed, by root either") {
    TempDir dir{"glint-files-test"};
    const std::string tmp = sticky_dir(dir, "tmp", geteuid());
    const std::string victim = dir.file("victim");
    std::ofstream(victim) << "secret";
    if (!owned_link(victim, tmp + "/report.json", kOtherUid))
        return glint::test::skip("lchown to another uid needs root or CAP_CHOWN");
    const std::string problem = refusal(tmp + "/report.json");
    CHECK(problem == "refusing to follow the symlink '" + tmp +
                         "/report.json': user 65534 owns it in the "
                         "sticky, world-writable directory '" +
                         tmp +
                         "' (it could point anywhere); remove it or "
                         "choose another path");
    // A dangling link is refused alike: nothing is created where it points.
    REQUIRE(owned_link(dir.file("planted"), tmp + "/dangling.json", kOtherUid));
    CHECK(refusal(tmp + "/dangling.json").find("refusing to follow the symlink") !=
          std::string::npos);
    // A hop further down the chain is held to the rule in its own directory.
    fs::create_symlink(tmp + "/report.json", dir.path / "mine.json");
    CHECK(refusal(dir.file("mine.json"))
              .find("refusing to follow the symlink '" + tmp + "/report.json'") !=
          std::string::npos);
    CHECK(glint::test::read_file(victim) == "secret");
    CHECK_FALSE(fs::exists(dir.path / "planted"));
}

TEST_CASE(
    "files linux: in a sticky directory a link owned by the caller or the directory's owner is "
    "followed") {
    TempDir dir{"glint-files-test"};
    const std::string mine = sticky_dir(dir, "mine", geteuid());
    CHECK(owned_link(dir.file("a.json"), mine + "/a.json", geteuid()));
    CHECK(resolved(mine + "/a.json").path == dir.file("a.json"));
    const std::string theirs = sticky_dir(dir, "theirs", geteuid());
    if (chown(theirs.c_str(), kOtherUid, static_cast<gid_t>(-1)) != 0 ||
        !owned_link(dir.file("b.json"), theirs + "/b.json", kOtherUid))
        return glint::test::skip("chown to another uid needs root or CAP_CHOWN");
    CHECK(resolved(theirs + "/b.json").path == dir.file("b.json"));
    // Outside a sticky directory the owner does not matter (the directory's owner chose it).
    REQUIRE(owned_link(dir.file("c.json"), dir.file("c-link.json"), kOtherUid));
    CHECK(resolved(dir.file("c-link.json")).path == dir.file("c.json"));
}

TEST_CASE(
    "files linux: a file another user owns in a sticky directory is not replaced, by root either") {
    TempDir dir{"glint-files-test"};
    const std::string tmp = sticky_dir(dir, "tmp", geteuid());
    const std::string planted = tmp + "/report.json";
    std::ofstream(planted) << "theirs";
    if (chown(planted.c_str(), kOtherUid, static_cast<gid_t>(-1)) != 0)
        return glint::test::skip("chown to another uid needs root or CAP_CHOWN");
    const auto problem = probe_output(resolved(planted));
    REQUIRE(problem.has_value());
    CHECK(*problem == "cannot replace '" + planted +
                          "': another user owns it in a sticky directory; choose "
                          "another path");
    std::ofstream(tmp + "/own.json") << "mine";
    CHECK_FALSE(probe_output(resolved(tmp + "/own.json")).has_value());
}

TEST_CASE("files linux: two outputs are the same file by any spelling, link or hard link") {
    TempDir dir{"glint-files-test"};
    REQUIRE(mkdir(dir.file("sub").c_str(), 0700) == 0);
    const OutputTarget fresh = resolved(dir.file("new.json"));
    CHECK(same_output(fresh, resolved(dir.file("sub/../new.json"))));  // neither exists yet
    CHECK_FALSE(same_output(fresh, resolved(dir.file("sub/new.json"))));
    std::ofstream(dir.file("a.json")) << "x";
    REQUIRE(link(dir.file("a.json").c_str(), dir.file("hard.json").c_str()) == 0);
    fs::create_symlink("a.json", dir.path / "soft.json");
    const OutputTarget a = resolved(dir.file("a.json"));
    CHECK(same_output(a, resolved(dir.file("hard.json"))));
    CHECK(same_output(a, resolved(dir.file("soft.json"))));
    fs::create_symlink("/dev/stdout", dir.path / "to-stdout");
    CHECK(same_output(resolved("-"), resolved(dir.file("to-stdout"))));
    std::string why;
    if (const auto null_device = glint::test::make_char_device(dir, glint::test::kNullDevice, why))
        CHECK_FALSE(
            same_output(resolved(*null_device), resolved(*null_device)));  // a device may be shared
    else MESSAGE(why);
    // An input read by the run: only an existing file can be overwritten.
    CHECK(overwrites_input(resolved(dir.file("soft.json")), dir.file("hard.json")));
    CHECK(overwrites_input(resolved(dir.file("hard.json")), dir.file("sub/../a.json")));
    CHECK_FALSE(overwrites_input(fresh, dir.file("a.json")));
    CHECK(shared_output_problem(
              {{"--bench-json", &a}, {"--bench-html", nullptr}, {"--profile-folded", &a}}) ==
          "--bench-json and --profile-folded both write '" + dir.file("a.json") +
              "'; give each its own file");
    const OutputTarget hard = resolved(dir.file("hard.json"));
    CHECK(shared_output_problem({{"--bench-json", &a}, {"--bench-html", &hard}}) ==
          "--bench-json ('" + dir.file("a.json") + "') and --bench-html ('" +
              dir.file("hard.json") + "') write the same file; give each its own file");
    CHECK_FALSE(
        shared_output_problem({{"--bench-json", &a}, {"--bench-html", &fresh}}).has_value());
}

TEST_CASE(
    "files linux: a link planted after the path was resolved is replaced, its target's permissions "
    "not taken") {
    TempDir dir{"glint-files-test"};
    const std::string path = dir.file("report.json");
    const OutputTarget target = resolved(path);  // nothing there yet
    const std::string victim = dir.file("victim");
    std::ofstream(victim) << "theirs";
    REQUIRE(chmod(victim.c_str(), 0666) == 0);
    fs::create_symlink(victim, path);
    const mode_t mask = umask(022);
    CHECK_FALSE(write_output(target, "mine\n").has_value());
    umask(mask);
    struct stat st {};
    REQUIRE(lstat(path.c_str(), &st) == 0);
    CHECK(S_ISREG(st.st_mode));
    CHECK((st.st_mode & 07777) == 0644);
    CHECK(glint::test::read_file(victim) == "theirs");
    // A replaced file's set-id bits are not kept.
    REQUIRE(chmod(path.c_str(), 04755) == 0);
    CHECK_FALSE(write_output(target, "again\n").has_value());
    REQUIRE(lstat(path.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0755);
}
