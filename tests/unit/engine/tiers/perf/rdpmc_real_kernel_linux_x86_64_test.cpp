// On the real kernel: --perf-read=rdpmc through the perf tier. Without a hardware PMU (these VMs)
// the software group opens, the syscall path counts, and the disclosure says why rdpmc is not
// used; with one, the outcome depends on the host's rdpmc setting and is reported.
#include <doctest/doctest.h>

#include <string>

#include "engine/tiers/perf/perf_tier.hpp"
#include "support/skip.hpp"

using namespace glint;
using namespace glint::engine;

namespace {

const Status* read_path_status(const std::vector<Status>& statuses) {
    for (const auto& s : statuses)
        if (s.capability == "perf.read-path") return &s;
    return nullptr;
}

bool any_line(const std::vector<std::string>& lines, const std::string& part) {
    for (const auto& l : lines)
        if (l.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE(
    "real kernel: --perf-read=rdpmc falls back to syscall where rdpmc is not granted, saying why") {
    auto tier = make_perf_tier();
    TierRequest o;
    o.perf.asked = true;
    o.perf.read = PerfRead::rdpmc;
    const std::vector<Status> statuses = tier->open(o);
    if (!statuses.front().usable())
        return glint::test::skip("perf_event is unavailable here: " + statuses.front().reason);
    const Json meta = tier->meta();
    const std::vector<std::string> header = tier->header_notes();
    CHECK(any_line(header, "perf: rdpmc sysfs: "));
    CHECK(meta.at("userRead").at("rdpmcSysfs").is_string());
    if (meta.at("group").as_string() == "software") {
        CHECK(meta.at("readPath").as_string() == "syscall");
        const Status* s = read_path_status(statuses);
        REQUIRE(s != nullptr);
        CHECK(s->state == Status::State::unavailable);
        CHECK(s->reason.find("--perf-read=rdpmc asked for the user-space path, which is not "
                             "available: the group has no hardware counter") != std::string::npos);
        CHECK(meta.at("userRead").at("reason").as_string().find("no hardware counter") !=
              std::string::npos);
        CHECK(any_line(header, "perf: read path syscall"));
    } else {
        MESSAGE("hardware group here: read path " << meta.at("readPath").as_string());
        if (meta.at("readPath").as_string() == "syscall")
            CHECK(read_path_status(statuses) != nullptr);
    }
}
