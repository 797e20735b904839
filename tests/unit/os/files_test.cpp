// The portable rules of os/files.hpp: how each kind of path is written.
#include <doctest/doctest.h>

#include "os/files.hpp"

using namespace glint::os;

TEST_CASE(
    "files: regular files are replaced, FIFOs and character devices written in place, the rest "
    "refused") {
    CHECK(output_mode_for(FileKind::absent) == OutputMode::replace);
    CHECK(output_mode_for(FileKind::regular) == OutputMode::replace);
    CHECK(output_mode_for(FileKind::fifo) == OutputMode::in_place);
    CHECK(output_mode_for(FileKind::character_device) == OutputMode::in_place);
    CHECK_FALSE(output_mode_for(FileKind::directory).has_value());
    CHECK_FALSE(output_mode_for(FileKind::block_device).has_value());
    CHECK_FALSE(output_mode_for(FileKind::socket).has_value());
    CHECK_FALSE(output_mode_for(FileKind::other).has_value());
}

TEST_CASE("files: the names of open descriptors") {
    CHECK(named_descriptor("-") == 1);
    CHECK(named_descriptor("/dev/stdout") == 1);
    CHECK(named_descriptor("/dev/stderr") == 2);
    CHECK(named_descriptor("/dev/fd/7") == 7);
    CHECK(named_descriptor("/proc/self/fd/12") == 12);
    CHECK_FALSE(named_descriptor("/dev/fd/").has_value());
    CHECK_FALSE(named_descriptor("/dev/fd/1x").has_value());
    CHECK_FALSE(named_descriptor("/dev/null").has_value());
    CHECK_FALSE(named_descriptor("stdout").has_value());
    CHECK_FALSE(named_descriptor("--").has_value());
}
