#include <doctest/doctest.h>

#include <string>

#include "engine/tiers/syscalls/syscall_names.hpp"

using namespace glint;
using namespace glint::engine;
using namespace glint::engine::syscalls;

namespace {

TierRequest with(std::vector<std::string> syscalls, std::vector<std::string> metrics, bool total) {
    TierRequest r;
    r.syscalls = SyscallRequest{total, std::move(syscalls)};
    r.metrics = std::move(metrics);
    return r;
}

catalog::MetricDescriptor column(std::string name, bool is_default) {
    catalog::MetricDescriptor d;
    d.name = std::move(name);
    d.source = "syscall";
    d.available = true;
    d.is_default = is_default;
    return d;
}

}  // namespace

TEST_CASE("syscall names: --syscalls names, then sc: selectors of --metrics, without duplicates") {
    const TierRequest o = with({"futex", "read"}, {"syscr", "sc:write", "sc:read", "sc:*"}, true);
    CHECK(requested_syscalls(o) == std::vector<std::string>{"futex", "read", "write"});
    CHECK(syscall_columns_named(o));
    CHECK(syscall_columns_named(with({}, {"sc:write"}, false)));
    CHECK(syscall_columns_named(with({}, {"syscalls"}, false)));
    CHECK(syscall_columns_named(with({}, {}, true)));
    CHECK_FALSE(syscall_columns_named(with({}, {"syscr", "sc:*"}, false)));  // a glob opens nothing
}

TEST_CASE("syscall names: a name that is not a system call's is a usage error naming it") {
    CHECK_FALSE(
        check_syscall_names(with({"futex", "sched_yield", "epoll_wait2"}, {"sc:read"}, true)));
    const auto slash = check_syscall_names(with({"../id"}, {}, true));
    REQUIRE(slash);
    CHECK(slash->find("--syscalls: '../id' is not a system call name") != std::string::npos);
    const auto selector = check_syscall_names(with({}, {"sc:"}, false));
    REQUIRE(selector);
    CHECK(selector->find("--metrics selector 'sc:'") != std::string::npos);
    CHECK_FALSE(check_syscall_names(with({}, {"sc:w*"}, false)));  // a glob, not a name

    std::vector<std::string> many;
    for (int i = 0; i < 63; ++i) many.push_back("s" + std::to_string(i));
    const auto too_many = check_syscall_names(with({}, {"sc:" + many[0]}, false));
    CHECK_FALSE(too_many);
    std::vector<std::string> selectors;
    for (const auto& n : many) selectors.push_back("sc:" + n);
    const auto over = check_syscall_names(with({}, selectors, false));
    REQUIRE(over);
    CHECK(over->find("63 system calls; at most 62") != std::string::npos);
}

TEST_CASE("syscall names: --syscalls keeps its columns visible beside an explicit --metrics list") {
    const std::vector<catalog::MetricDescriptor> catalog{
        column("syscalls", true), column("sc:write", true), column("sc:futex", true)};
    CHECK(syscall_flag_selectors(with({"write"}, {"syscr"}, true), catalog) ==
          std::vector<std::string>{"syscalls", "sc:write"});
    CHECK(syscall_flag_selectors(with({"write"}, {}, true), catalog).empty());  // defaults anyway
    CHECK(syscall_flag_selectors(with({}, {"sc:futex"}, false), catalog).empty());
    // The tier did not open (its columns are not default): nothing is forced into view.
    const std::vector<catalog::MetricDescriptor> closed{column("syscalls", false)};
    CHECK(syscall_flag_selectors(with({}, {"syscr"}, true), closed).empty());
}
