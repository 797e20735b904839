// The doctest main of the unit and end-to-end test binaries, with two guards doctest lacks:
//
// - A run whose filters select no test case fails ("GLINT-EMPTY-RUN"). Every ctest entry is
//   one `--test-case=<name>` run (doctest_discover_tests), so an entry whose filter matches
//   nothing (a name split at ';', a renamed case) fails instead of passing with 0 cases.
// - A run in which every test case that ran called glint::test::skip() (support/skip.hpp), and
//   none failed, exits with kSkipExitCode, so ctest shows the entry as skipped.
// Query runs (--list-test-cases, --count, --help, ...) are left alone.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <set>
#include <string>
#include <string_view>

#include "support/skip.hpp"

namespace {

struct RunRecord {
    bool ran = false;     // a test run (not a query) ended
    int started = 0;      // test cases executed
    std::string current;  // the test case running
    std::set<std::string> skipped;
};
RunRecord g_record;

struct RunGuard final : doctest::IReporter {
    explicit RunGuard(const doctest::ContextOptions&) {}
    void report_query(const doctest::QueryData&) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats&) override { g_record.ran = true; }
    void test_case_start(const doctest::TestCaseData& tc) override {
        ++g_record.started;
        g_record.current = tc.m_name;
    }
    void test_case_reenter(const doctest::TestCaseData&) override {}
    void test_case_end(const doctest::CurrentTestCaseStats&) override {}
    void test_case_exception(const doctest::TestCaseException&) override {}
    void subcase_start(const doctest::SubcaseSignature&) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData&) override {}
    void log_message(const doctest::MessageData&) override {}
    void test_case_skipped(const doctest::TestCaseData&) override {}
};
DOCTEST_REGISTER_LISTENER("glint-run-guard", 1, RunGuard);

}  // namespace

void glint::test::skip(std::string_view reason) {
    std::printf("GLINT-SKIP: %s: %.*s\n", g_record.current.c_str(), static_cast<int>(reason.size()),
                reason.data());
    std::fflush(stdout);
    g_record.skipped.insert(g_record.current);
}

int main(int argc, char** argv) {
    doctest::Context context(argc, argv);
    const int result = context.run();
    if (context.shouldExit() || !g_record.ran) return result;
    if (g_record.started == 0) {
        std::fprintf(stderr,
                     "GLINT-EMPTY-RUN: the filters selected no test case (a test-case name with "
                     "';' is split by ctest's discovery, or the name changed): fix the filter or "
                     "the name\n");
        return 1;
    }
    if (result != 0 || g_record.skipped.empty()) return result;
    std::printf("GLINT: %zu of %d test case(s) skipped on this host (see GLINT-SKIP lines)\n",
                g_record.skipped.size(), g_record.started);
    return static_cast<int>(g_record.skipped.size()) == g_record.started
               ? glint::test::kSkipExitCode
               : result;
}

// Self-tests of the two guards, run by tests/check_test_main.cmake through --no-skip (the
// skip decorator keeps them out of every ordinary run and of ctest's discovery).
TEST_CASE("glint test main self-test: a skipped case" * doctest::skip()) {
    glint::test::skip("self-test");
}
TEST_CASE("glint test main self-test: a failed check then a skip" * doctest::skip()) {
    CHECK(false);
    glint::test::skip("self-test");
}
TEST_CASE("glint test main self-test: a passing case" * doctest::skip()) { CHECK(true); }
