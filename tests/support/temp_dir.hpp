// tests/support/temp_dir.hpp: a fresh directory under /tmp (mkdtemp: an unpredictable name)
// for tests that create files, removed with everything in it afterwards (its permissions are
// restored first, so a test may make it unwritable) by the process that made it: a forked
// child that exits normally leaves it to its parent.
#pragma once

#include <doctest/doctest.h>

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace glint::test {

struct TempDir {
    // `stem` names the test in the directory's name: /tmp/<stem>-XXXXXX.
    explicit TempDir(const std::string& stem) {
        std::string pattern = "/tmp/" + stem + "-XXXXXX";
        REQUIRE(::mkdtemp(pattern.data()) != nullptr);
        path = pattern;
    }
    ~TempDir() {
        if (::getpid() != owner) return;
        ::chmod(path.c_str(), 0700);
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string file(const std::string& name) const { return (path / name).string(); }
    // The names in the directory, sorted.
    std::vector<std::string> entries() const {
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(path))
            names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }
    std::filesystem::path path;
    pid_t owner = ::getpid();
};

// `name` in this process's own TempDir (made on first use, removed at exit); '/' and '*' in
// `name` become '_'.
inline std::string temp_path(std::string name) {
    static const TempDir dir{"glint-test"};
    for (char& c : name)
        if (c == '/' || c == '*') c = '_';
    return dir.file(name);
}

}  // namespace glint::test
