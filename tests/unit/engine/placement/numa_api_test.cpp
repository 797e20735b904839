// <glint/numa.hpp>: page placement of a buffer, and the numa:node<N> column family.
#include <doctest/doctest.h>

#include <glint/numa.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "support/skip.hpp"

TEST_CASE("numa api: percent_on counts untouched pages against every node") {
    glint::PageNodes p;
    p.pages = 200;
    p.on_node = {0, 196};
    p.not_present = 4;
    CHECK(p.percent_on(1) == doctest::Approx(98.0));
    CHECK(p.percent_on(0) == 0.0);
    CHECK(p.percent_on(7) == 0.0);  // a node holding nothing
    p.error = "no NUMA";
    CHECK(std::isnan(p.percent_on(1)));
    glint::PageNodes empty;
    CHECK(std::isnan(empty.percent_on(0)));
}

TEST_CASE("numa api: a touched buffer is wholly on this host's nodes, an untouched one nowhere") {
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<char> touched(64 * page, 'x');
    const glint::PageNodes where = glint::numa_nodes_of(touched.data(), touched.size());
    if (!where.ok())
        return glint::test::skip("this kernel cannot say where pages live: " + where.error);
    double total = 0;
    for (unsigned n = 0; n < where.on_node.size(); ++n) total += where.percent_on(n);
    CHECK(total == doctest::Approx(100.0));
    CHECK(where.not_present == 0);

    void* fresh =
        ::mmap(nullptr, 8 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(fresh != MAP_FAILED);
    const glint::PageNodes none = glint::numa_nodes_of(fresh, 8 * page);
    ::munmap(fresh, 8 * page);
    CHECK(none.pages == 8);
    CHECK(none.not_present == 8);
    CHECK(none.percent_on(0) == 0.0);
}

TEST_CASE("numa api: numa_metrics is one level column per node, numa:node<N>, in percent") {
    std::vector<char> buffer(1 << 16, 'x');
    const auto metrics = glint::numa_metrics(buffer.data(), buffer.size());
    REQUIRE(!metrics.empty());
    const glint::PageNodes where = glint::numa_nodes_of(buffer.data(), buffer.size());
    double total = 0;
    for (const auto& m : metrics) {
        CHECK(m.unit.rfind("numa:node", 0) == 0);
        CHECK(m.mode == glint::Metric::level);
        const unsigned node = static_cast<unsigned>(std::stoul(m.unit.substr(9)));
        if (where.ok()) CHECK(m.amount == doctest::Approx(where.percent_on(node)));
        total += std::isnan(m.amount) ? 0 : m.amount;
    }
    if (where.ok()) CHECK(total == doctest::Approx(100.0));
}
