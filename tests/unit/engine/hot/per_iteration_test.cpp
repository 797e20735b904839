// --per-iteration's decision, on any host: it runs only where reads make no system call.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/runner/per_iteration.hpp"

using glint::engine::refusal_reason;
using glint::hot::Path;
using glint::hot::Status;

namespace {

Status status(bool ok, Path path, const char* reason) {
    Status s;
    s.ok = ok;
    s.path = path;
    std::strncpy(s.reason, reason, sizeof s.reason - 1);
    return s;
}

}  // namespace

TEST_CASE("per-iteration: runs on user reads, inline or out of line") {
    CHECK(refusal_reason(status(true, Path::inline_user, "x")).empty());
    CHECK(refusal_reason(status(true, Path::out_of_line_user, "x")).empty());
}

TEST_CASE("per-iteration: refuses read(2) reads and groups that did not open, saying why") {
    const std::string syscall = refusal_reason(status(true, Path::syscall, "cap_user_rdpmc 0"));
    CHECK(syscall.find("read(2) (cap_user_rdpmc 0)") != std::string::npos);
    CHECK(syscall.find("a system call per call would measure the apparatus") != std::string::npos);
    const std::string none = refusal_reason(status(false, Path::none, "no hardware PMU"));
    CHECK(none.find("no hardware PMU") != std::string::npos);
}

TEST_CASE("per-iteration: not asked, its columns are neither available nor default") {
    auto tier = glint::engine::make_per_iteration_tier();
    glint::engine::Options options;
    CHECK_FALSE(tier->wanted(options));
    options.metrics = {"instr-p99"};
    CHECK(tier->wanted(options));  // naming a column opens the tier
    for (const auto& d : tier->family()) {
        CHECK_FALSE(d.available);
        CHECK_FALSE(d.is_default);
        CHECK(d.reason.find("--per-iteration") != std::string::npos);
        CHECK(d.source == "per-iteration");
    }
    std::vector<std::unique_ptr<glint::engine::Tier>> tiers;
    CHECK(glint::engine::find_per_iteration(tiers) == nullptr);
    tiers.push_back(std::move(tier));
    CHECK(glint::engine::find_per_iteration(tiers) != nullptr);
}
