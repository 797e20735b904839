// End to end: what glint refuses to write, and how a failed write ends the run
// (os/linux/output_target.cpp, engine/runner/main.cpp, engine/runner/keeping/guarded_run.cpp).
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "support/device_node.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;
using glint::test::TempDir;
namespace fs = std::filesystem;

namespace {

constexpr uid_t kOtherUid = 65534;  // "nobody": a user that is not the test's

std::vector<std::string> quick_run(std::vector<std::string> flags) {
    std::vector<std::string> argv{fixture_path("basic"), "--bench", "--bench-min-time=0.05"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return argv;
}

}  // namespace

TEST_CASE(
    "e2e outputs: --bench-json through a symlink another user planted in a sticky directory is "
    "refused before measuring") {
    TempDir dir{"glint-e2e-outputs"};
    const std::string tmp = dir.file("tmp");
    REQUIRE(mkdir(tmp.c_str(), 0777) == 0);
    REQUIRE(chmod(tmp.c_str(), 01777) == 0);
    const std::string victim = dir.file("victim");
    std::ofstream(victim) << "secret";
    REQUIRE(symlink(victim.c_str(), (tmp + "/report.json").c_str()) == 0);
    if (lchown((tmp + "/report.json").c_str(), kOtherUid, static_cast<gid_t>(-1)) != 0)
        return glint::test::skip("lchown to another uid needs root or CAP_CHOWN");
    auto r = run_process(quick_run({"--bench-json=" + tmp + "/report.json"}));
    CHECK(r.exit_code == 2);
    CHECK(r.err ==
          "glint: error: --bench-json: refusing to follow the symlink '" + tmp +
              "/report.json': user 65534 owns it in the sticky, world-writable directory '" + tmp +
              "' (it could point anywhere); remove it or choose another path\n");
    CHECK(r.out.empty());  // nothing measured
    CHECK(read_file(victim) == "secret");

    // A dangling link: nothing is created where it points.
    REQUIRE(symlink(dir.file("created").c_str(), (tmp + "/dangling.json").c_str()) == 0);
    REQUIRE(lchown((tmp + "/dangling.json").c_str(), kOtherUid, static_cast<gid_t>(-1)) == 0);
    auto d = run_process(quick_run({"--bench-json=" + tmp + "/dangling.json"}));
    CHECK(d.exit_code == 2);
    CHECK(contains(d.err, "refusing to follow the symlink"));
    CHECK_FALSE(fs::exists(dir.file("created")));

    // The caller's own link is followed.
    REQUIRE(symlink(dir.file("mine.json").c_str(), (tmp + "/mine.json").c_str()) == 0);
    auto m = run_process(quick_run({"--bench-json=" + tmp + "/mine.json"}));
    CHECK(m.exit_code == 0);
    CHECK(Json::parse(read_file(dir.file("mine.json"))).at("rows").size() == 7);
}

TEST_CASE(
    "e2e outputs: two outputs naming one file are refused before measuring, by any spelling") {
    TempDir dir{"glint-e2e-outputs"};
    REQUIRE(mkdir(dir.file("sub").c_str(), 0700) == 0);
    const std::string json = dir.file("run.json");
    auto same = run_process(quick_run({"--bench-json=" + json, "--bench-html=" + json}));
    CHECK(same.exit_code == 2);
    CHECK(same.err == "glint: error: --bench-json and --bench-html both write '" + json +
                          "'; give each its own file\n");
    CHECK(same.out.empty());
    CHECK(dir.entries() == std::vector<std::string>{"sub"});
    auto folded = run_process(quick_run(
        {"--bench-json=" + json, "--profile", "--profile-folded=" + dir.file("sub/../run.json")}));
    CHECK(folded.exit_code == 2);
    CHECK(contains(folded.err, "--bench-json ('" + json + "') and --profile-folded ('" +
                                   dir.file("sub/../run.json") + "') write the same file"));
    std::ofstream(json) << "kept";
    REQUIRE(link(json.c_str(), dir.file("hard.json").c_str()) == 0);
    fs::create_symlink("run.json", dir.path / "soft.json");
    for (const std::string& other : {dir.file("hard.json"), dir.file("soft.json")}) {
        CAPTURE(other);
        auto r = run_process(quick_run({"--bench-json=" + json, "--bench-html=" + other}));
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, "write the same file; give each its own file"));
    }
    // A link to the standard output is the standard output.
    fs::create_symlink("/dev/stdout", dir.path / "out.html");
    auto out = run_process(quick_run({"--bench-json=-", "--bench-html=" + dir.file("out.html")}));
    CHECK(out.exit_code == 2);
    CHECK(contains(out.err, "--bench-json ('-') and --bench-html ('" + dir.file("out.html") +
                                "') write the same file"));
    CHECK(read_file(json) == "kept");
}

TEST_CASE(
    "e2e outputs: --bench-html or --profile-folded naming the --bench-baseline document is "
    "refused, --bench-json may replace it") {
    TempDir dir{"glint-e2e-outputs"};
    const std::string base = dir.file("base.json");
    REQUIRE(run_process(quick_run({"--bench-json=" + base})).exit_code == 0);
    const std::string before = read_file(base);
    fs::create_symlink("base.json", dir.path / "base-link.html");
    auto html = run_process(
        quick_run({"--bench-baseline=" + base, "--bench-html=" + dir.file("base-link.html")}));
    CHECK(html.exit_code == 2);
    CHECK(html.err == "glint: error: --bench-html ('" + dir.file("base-link.html") +
                          "') would overwrite the --bench-baseline document '" + base +
                          "'; give it its own file\n");
    CHECK(html.out.empty());
    auto folded = run_process(
        quick_run({"--bench-baseline=" + base, "--profile", "--profile-folded=" + base}));
    CHECK(folded.exit_code == 2);
    CHECK(contains(folded.err, "--profile-folded ('" + base +
                                   "') would overwrite the --bench-baseline document"));
    CHECK(read_file(base) == before);
    auto rolling = run_process(quick_run({"--bench-baseline=" + base, "--bench-json=" + base}));
    CHECK(rolling.exit_code == 0);
    CHECK(read_file(base) != before);
}

TEST_CASE(
    "e2e outputs: a --profile-folded that cannot be written fails the run, the other outputs "
    "kept") {
    TempDir dir{"glint-e2e-outputs"};
    std::string why;
    const auto full = glint::test::make_char_device(dir, glint::test::kFullDevice, why);
    if (!full) return glint::test::skip(why);
    const std::string json = dir.file("run.json");
    auto r = run_process({fixture_path("profile"), "--bench", "--bench-min-time=0.05", "--profile",
                          "--profile-time=100", "--filter=split", "--bench-json=" + json,
                          "--profile-folded=" + *full});
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "glint: error: --profile-folded: cannot write '" + *full +
                              "': No space left on device"));
    CHECK(contains(r.out, "split"));  // the table
    CHECK(Json::parse(read_file(json)).at("rows").size() == 1);
}

TEST_CASE(
    "e2e outputs: --bench-json=- has the standard output to itself, the table goes to stderr") {
    auto r = run_process(quick_run({"--bench-json=-"}));
    CHECK(r.exit_code == 0);
    CHECK(Json::parse(r.out).at("rows").size() == 7);  // nothing but the document
    CHECK(contains(r.err, "add_chain"));
    CHECK(contains(r.err, "╰"));
}

TEST_CASE(
    "e2e outputs: glint-compare refuses an --html that would overwrite a document it compares") {
    TempDir dir{"glint-e2e-outputs"};
    const std::string a = dir.file("a.json"), b = dir.file("b.json");
    std::ofstream(a) << "base";
    std::ofstream(b) << "new";
    REQUIRE(symlink(a.c_str(), dir.file("a-link.html").c_str()) == 0);
    for (const std::string& html : {a, dir.file("a-link.html"), dir.file("./a.json")}) {
        CAPTURE(html);
        auto r = run_process({glint::test::compare_path(), a, b, "--html=" + html});
        CHECK(r.exit_code == 2);
        CHECK(r.err == "glint-compare: error: --html='" + html +
                           "' would overwrite the document '" + a +
                           "' it compares; choose another path\n");
    }
    // A side of several runs, comma-separated: each file counts.
    auto side = run_process({glint::test::compare_path(), a, b + "," + a, "--html=" + b});
    CHECK(side.exit_code == 2);
    CHECK(contains(side.err, "would overwrite the document '" + b + "'"));
    CHECK(read_file(a) == "base");
    CHECK(read_file(b) == "new");
}

TEST_CASE(
    "e2e outputs: glint-compare whose table cannot be written exits 2, and still writes its "
    "--html") {
    TempDir dir{"glint-e2e-outputs"};
    std::string why;
    const auto full = glint::test::make_char_device(dir, glint::test::kFullDevice, why);
    if (!full) return glint::test::skip(why);
    const std::string json = dir.file("run.json");
    REQUIRE(run_process(quick_run({"--bench-json=" + json})).exit_code == 0);
    glint::test::BackgroundProcess c(
        {glint::test::compare_path(), json, json, "--html=" + dir.file("c.html")}, {}, *full);
    const auto r = c.wait();
    CHECK(r.exit_code == 2);
    CHECK(r.err ==
          "glint-compare: error: writing the standard output failed: No space left on device\n");
    CHECK(contains(read_file(dir.file("c.html")), "<html"));
}

TEST_CASE(
    "e2e outputs: glint-compare --html=- has the standard output to itself, the table goes to "
    "stderr") {
    TempDir dir{"glint-e2e-outputs"};
    const std::string json = dir.file("run.json");
    REQUIRE(run_process(quick_run({"--bench-json=" + json})).exit_code == 0);
    auto r = run_process({glint::test::compare_path(), json, json, "--html=-"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK_FALSE(contains(r.out, "╭"));  // the table
    CHECK(contains(r.err, "╭"));
}
