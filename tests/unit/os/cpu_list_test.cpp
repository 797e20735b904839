// The kernel's CPU-list notation, both ways (os/cpu_list.hpp).
#include <doctest/doctest.h>

#include "os/cpu_list.hpp"

using glint::os::format_cpu_list;
using glint::os::parse_cpu_list;
using List = std::vector<unsigned>;

TEST_CASE("cpu list: ranges, singles and a trailing newline parse to sorted CPUs") {
    CHECK(parse_cpu_list("0-3,8,10-11\n") == List{0, 1, 2, 3, 8, 10, 11});
    CHECK(parse_cpu_list("5") == List{5});
    CHECK(parse_cpu_list("3,1,1-2") == List{1, 2, 3});
    CHECK(parse_cpu_list("\n") == List{});
    CHECK(parse_cpu_list("") == List{});
}

TEST_CASE("cpu list: malformed text is refused, not half-read") {
    for (const char* bad : {"a", "1-", "-1", "3-1", "1,,2", "1,", "0x1", "1 2", "1-99999999"})
        CHECK_MESSAGE(!parse_cpu_list(bad), bad);
}

TEST_CASE("cpu list: formatting joins consecutive CPUs into ranges") {
    CHECK(format_cpu_list({0, 1, 2, 3, 8, 10, 11}) == "0-3,8,10-11");
    CHECK(format_cpu_list({7}) == "7");
    CHECK(format_cpu_list({2, 0, 1, 1}) == "0-2");
    CHECK(format_cpu_list({}) == "");
}
