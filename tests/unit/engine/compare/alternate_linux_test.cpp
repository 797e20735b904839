// glint-compare --alternate: programs and --keep=DIR checked before anything runs.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/compare/alternate.hpp"
#include "support/temp_dir.hpp"

using glint::engine::AlternateRequest;
using glint::engine::Alternation;
using glint::test::TempDir;

namespace {

AlternateRequest request(std::string keep) {
    AlternateRequest r;
    r.runs = 2;
    r.keep = std::move(keep);
    return r;
}

// A program that would record it ran (it must never run here).
std::string tattler(const TempDir& dir) {
    const std::string path = dir.file("tattler");
    std::ofstream(path) << "#!/bin/sh\necho ran >> " << dir.file("ran") << "\nexit 1\n";
    chmod(path.c_str(), 0755);
    return path;
}

std::vector<std::string> entries(const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

TEST_CASE("alternate: a program that cannot run is refused before anything runs") {
    TempDir dir("glint-unit-alternate");
    const std::string program = tattler(dir), plain = dir.file("plain.sh");
    std::ofstream(plain) << "#!/bin/sh\n";
    const std::string keep = dir.file("keep");
    for (const auto& bad : {plain, dir.file("missing"), dir.path.string()}) {
        std::vector<std::string> files{program, bad};
        Alternation alternation(request(keep));
        CHECK(alternation.run(files) == 2);
        CHECK(files == std::vector<std::string>{program, bad});  // nothing replaced
    }
    CHECK_FALSE(std::filesystem::exists(keep));  // no DIR made
    CHECK_FALSE(std::filesystem::exists(dir.file("ran")));
}

TEST_CASE("alternate: --keep=DIR is new, empty or an earlier --alternate directory") {
    TempDir dir("glint-unit-alternate");
    const std::string program = tattler(dir);
    // A directory holding someone's files is refused and left as it was.
    const std::string foreign = dir.file("foreign");
    std::filesystem::create_directory(foreign);
    std::ofstream(foreign + "/notes.txt") << "mine";
    std::ofstream(foreign + "/base-1.json") << "mine too";
    std::vector<std::string> files{program, program};
    CHECK(Alternation(request(foreign)).run(files) == 2);
    CHECK(entries(foreign) == std::vector<std::string>{"base-1.json", "notes.txt"});
    // So is a file.
    CHECK(Alternation(request(dir.file("tattler"))).run(files) == 2);
    CHECK_FALSE(std::filesystem::exists(dir.file("ran")));
    // An earlier --alternate directory is reused: its documents and logs go, other files stay.
    const std::string earlier = dir.file("earlier");
    std::filesystem::create_directory(earlier);
    for (const char* name : {".glint-alternate", "base-7.json", "new-7.log", "notes.txt"})
        std::ofstream(earlier + "/" + name) << "x";
    {
        Alternation alternation(request(earlier));
        CHECK(alternation.run(files) == 2);  // the tattler exits 1: the first run stops it
        alternation.finish(2);
    }
    CHECK(entries(earlier) ==
          std::vector<std::string>{".glint-alternate", "base-1.log", "notes.txt"});
    // A new directory is made (with its parents).
    const std::string fresh = dir.file("a/b");
    CHECK(Alternation(request(fresh)).run(files) == 2);
    CHECK(std::filesystem::is_directory(fresh));
}
