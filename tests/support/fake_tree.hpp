// tests/support/fake_tree.hpp: a temporary directory tree standing in for sysfs or procfs.
// Files are written with the text the kernel would give; the tree is removed afterwards.
#pragma once

#include <doctest/doctest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace glint::test {

class FakeTree {
  public:
    FakeTree() {
        char templ[] = "/tmp/glint-tree-XXXXXX";
        REQUIRE(::mkdtemp(templ) != nullptr);
        root_ = templ;
    }
    ~FakeTree() {
        std::error_code ec;
        std::filesystem::remove_all(root_, ec);
    }
    FakeTree(const FakeTree&) = delete;
    FakeTree& operator=(const FakeTree&) = delete;

    const std::string& root() const { return root_; }
    // Writes `text` to root/relative, creating the directories on the way.
    void write(const std::string& relative, const std::string& text) const {
        const std::filesystem::path path = std::filesystem::path(root_) / relative;
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path) << text;
    }
    void mkdir(const std::string& relative) const {
        std::filesystem::create_directories(std::filesystem::path(root_) / relative);
    }

  private:
    std::string root_;
};

}  // namespace glint::test
