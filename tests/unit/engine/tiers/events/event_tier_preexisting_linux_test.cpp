// Under --perf-inherit the raw: and pfm: tiers count the threads that existed before their group
// opened (engine/tiers/preexisting_threads.hpp), for real on this kernel with a libpfm-named
// software event: a busy pre-existing thread's CPU time is in the pfm:TASK-CLOCK column then, not
// without --perf-inherit; one left unopened is reported; beside --perf, the row has one coverage.
#include <doctest/doctest.h>

#include <pthread.h>
#include <time.h>

#include <atomic>
#include <thread>
#include <vector>

#include "engine/tiers/events/event_tier.hpp"
#include "engine/tiers/perf/perf_tier.hpp"
#include "engine/tiers/preexisting_threads.hpp"
#include "engine/tiers/tier_set.hpp"
#include "os/pfm.hpp"
#include "os/process.hpp"
#include "os/process_tasks.hpp"
#include "support/test_bodies.hpp"
#include "support/workloads.hpp"

using namespace glint;
using namespace glint::engine;

namespace {

constexpr std::uint64_t kIterations = 40;

// A thread burning CPU in 50 us chunks from construction to destruction: it exists before any
// group opens. wait_for_chunks() blocks (no CPU of its own) until it has burned two more.
struct Spinner {
    std::atomic<bool> stop{false};
    std::atomic<long> tid{0};
    std::atomic<long> chunks{0};
    std::thread thread{[this] {
        pthread_setname_np(pthread_self(), "pre-spin");
        tid = os::thread_id();
        while (!stop.load(std::memory_order_relaxed)) {
            glint::test::burn_cpu(50'000);
            chunks.fetch_add(1);
            chunks.notify_all();
        }
    }};
    Spinner() {
        while (tid.load() == 0) std::this_thread::yield();
    }
    ~Spinner() {
        stop = true;
        thread.join();
    }
    void wait_for_chunks() {
        const long target = chunks.load() + 2;
        for (long c = chunks.load(); c < target; c = chunks.load()) chunks.wait(c);
    }
};

// The CPU time the census gives thread `tid`; -1 when it is not listed.
std::int64_t cpu_of(long tid) {
    for (const auto& t : os::process_tasks().tasks)
        if (t.tid == tid) return t.cpu_ns;
    return -1;
}

std::int64_t own_cpu_ns() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1'000'000'000L + ts.tv_nsec;
}

TierRequest pfm_request(bool inherit) {
    TierRequest r;
    r.metrics = {"pfm:TASK-CLOCK"};
    r.perf.inherit = inherit;
    r.sizing.iterations = kIterations;
    r.sizing.batch = 1;
    return r;
}

bool lists(const Json& list, long tid) {
    for (const Json& t : list.as_array())
        if (t.at("tid").as_number() == static_cast<double>(tid)) return true;
    return false;
}

}  // namespace

TEST_CASE(
    "real pfm tier: a busy thread that existed before the open is in its column under "
    "--perf-inherit only") {
    os::pfm_reload_for_tests();
    REQUIRE(os::pfm_library().loaded);
    Spinner spinner;
    for (const bool inherit : {false, true}) {
        CAPTURE(inherit);
        auto tier = make_pfm_event_tier();
        const auto statuses = tier->open(pfm_request(inherit));
        REQUIRE_MESSAGE(statuses.front().usable(), statuses.front().reason);
        CHECK((statuses.front().reason.find("and the threads that existed before the open") !=
               std::string::npos) == inherit);
        const std::int64_t spun = cpu_of(spinner.tid), own = own_cpu_ns();
        // Each iteration blocks while the spinner burns 100 us: its CPU time dwarfs the measuring
        // thread's.
        auto body = [&] { spinner.wait_for_chunks(); };
        const PassResult r = tier->count(glint::test::batched(body), PassPlan{kIterations, 1});
        const double own_ns = static_cast<double>(own_cpu_ns() - own);
        const double spin_ns = static_cast<double>(cpu_of(spinner.tid) - spun);
        const double counted = glint::test::cell(r, "pfm:TASK-CLOCK") * kIterations;
        INFO("the pass's row fields (why a cell is not measured): " << r.row_fields.dump());
        REQUIRE(spun >= 0);
        REQUIRE(spin_ns > 0);
        const Json* coverage = r.row_fields.find("threadCoverage");
        if (inherit) {
            // The spinner's CPU time between the reads around the pass (at least half of it, with
            // the census's tick of lag), beyond all the measuring thread could have counted.
            CHECK(counted >= 0.5 * spin_ns);
            CHECK(counted > own_ns);
            REQUIRE(coverage);
            CHECK(lists(coverage->at("preExisting"), spinner.tid));
        } else {
            CHECK(counted <= own_ns);  // the measuring thread's brackets only
            CHECK_FALSE(coverage);
        }
    }
}

TEST_CASE(
    "real pfm tier: a thread that existed before the open and was not counted is reported, by "
    "tier") {
    os::pfm_reload_for_tests();
    REQUIRE(os::pfm_library().loaded);
    std::atomic<bool> stop{false};
    std::vector<std::thread> sleepers;
    for (std::size_t i = 0; i < kMaxPreexisting + 2; ++i)
        sleepers.emplace_back([&] {
            while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
    auto tier = make_pfm_event_tier();
    REQUIRE(tier->open(pfm_request(true)).front().usable());
    auto body = [] {};
    const PassResult r = tier->count(glint::test::batched(body), PassPlan{kIterations, 1});
    tier->close();
    stop = true;
    for (auto& t : sleepers) t.join();
    const Json* coverage = r.row_fields.find("threadCoverage");
    REQUIRE(coverage);
    CHECK(coverage->at("preExisting").as_array().size() == kMaxPreexisting);
    const auto& missed = coverage->at("preExistingMissed").as_array();
    REQUIRE(missed.size() >= 2);
    CHECK(missed.back().at("why").as_string().find(
              "not opened: groups are opened on 64 threads at most") == 0);
    REQUIRE(missed.back().at("tiers").as_array().size() == 1);
    CHECK(missed.back().at("tiers").as_array()[0].as_string() == "pfm");
}

TEST_CASE(
    "real tier set: --perf and pfm: under --perf-inherit give a row one coverage, the thread "
    "listed once") {
    os::pfm_reload_for_tests();
    REQUIRE(os::pfm_library().loaded);
    Spinner spinner;
    TierRequest request = pfm_request(true);
    request.perf.asked = true;
    std::vector<std::unique_ptr<Tier>> all;
    all.push_back(make_perf_tier());
    all.push_back(make_pfm_event_tier());
    TierSet set;
    set.open(request, std::move(all));
    TimingSummary timing;
    timing.iterations_per_sample = kIterations;
    timing.median_ns = 1e5;
    auto body = [&] { spinner.wait_for_chunks(); };
    const CountedCase c = set.count("busy", "busy", glint::test::batched(body), timing, {});
    set.close();
    const Json* coverage = c.row_fields.find("threadCoverage");
    REQUIRE(coverage);  // the spinner ran far beyond the bound, counted
    const auto& counted = coverage->at("preExisting").as_array();
    std::size_t listed = 0;
    for (const Json& t : counted)
        listed += t.at("tid").as_number() == static_cast<double>(spinner.tid);
    CHECK(listed == 1);
    CHECK(coverage->at("counted").as_number() == static_cast<double>(1 + counted.size()));
    CHECK(coverage->at("preExistingMissed").as_array().empty());
    CHECK(coverage->at("countedCpuNs").as_number() > 0);
}
