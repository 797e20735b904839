// --per-iteration's decision, on any host: it runs only where reads make no system call.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/tiers/per_iteration/per_iteration_tier.hpp"
#include "engine/tiers/tier_set.hpp"

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
    glint::engine::TierRequest request;
    CHECK_FALSE(tier->wanted(request));
    request.per_iteration.asked = true;
    CHECK(tier->wanted(request));
    for (const auto& d : tier->family()) {
        CHECK_FALSE(d.available);
        CHECK_FALSE(d.is_default);
        CHECK(d.reason.find("--per-iteration") != std::string::npos);
        CHECK(d.source == "per-iteration");
    }
}

TEST_CASE("per-iteration: naming one of its columns in --metrics opens the tier") {
    glint::engine::TierRequest request;
    request.metrics = {"instr-p99"};
    std::vector<std::unique_ptr<glint::engine::Tier>> all;
    bool opened = false;
    all.push_back(glint::engine::make_per_iteration_tier([&] {
        opened = true;  // open() asks for a group: the tier was wanted
        const char* const names[] = {"cycles", "instructions"};
        return std::make_unique<glint::engine::PerIterationGroup>(names);
    }));
    glint::engine::TierSet set;
    set.open(request, std::move(all));
    CHECK(opened);
    CHECK(set.statuses().size() == 1);
    CHECK(set.statuses().front().capability == "per-iteration");
}
