// The run's record: the journal beside the target, the document written when the run cannot
// return, and the journal read back (engine/runner/keeping/run_record.hpp, journal.hpp).
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../../report/rows.hpp"
#include "engine/report/json_report.hpp"
#include "engine/runner/keeping/journal.hpp"
#include "engine/runner/keeping/run_record.hpp"

#include "support/process.hpp"
#include "support/temp_dir.hpp"

using namespace glint::engine;
using namespace glint::engine::report::testing;
using glint::catalog::Format;
using glint::catalog::make_cell;
namespace fs = std::filesystem;
using glint::test::TempDir;

namespace {

glint::os::OutputTarget target(const std::string& path) {
    std::string problem;
    auto t = glint::os::resolve_output(path, problem);
    REQUIRE(t.has_value());
    return *t;
}

Json meta() {
    Json m = Json::object();
    m["host"] = "test-host";
    return m;
}

const std::vector<glint::catalog::MetricDescriptor> kColumns = {
    metric("ipc", "IPC", Format::ratio)};

Row measured(const std::string& name, double ipc) {
    Row r = timed_row(name, batched(2, 8, 1.5, 0.1, 1.0, 2.0), {make_cell(kColumns[0], ipc)});
    r.timing->sample_ns = {1.0, 2.0};
    return r;
}

// A row as a document holds it: its numbers written with 6 significant digits (stddevNs of the
// samples {1, 2} reads 0.707107).
Json written(const Json& row) { return Json::parse(row.dump()); }

// A record with two finished rows and a third case in flight.
void fill(RunRecord& record) {
    record.set_columns(kColumns);
    record.case_started("first", {});
    record.row_finished(measured("first", 1.25));
    record.case_started("second \"quoted\"", {});
    record.row_finished(error_row("second \"quoted\"", "after: mismatch"));
    record.case_started("third", {{"op", "find"}, {"size", "1000"}});
}

}  // namespace

TEST_CASE(
    "run record: a run that cannot return still writes a valid document of its finished rows") {
    TempDir dir{"glint-record-test"};
    const auto out = target(dir.file("out.json"));
    RunRecord record;
    std::string note;
    record.start(&out, meta(), note);
    CHECK(note.empty());
    REQUIRE_FALSE(record.journal_path().empty());
    fill(record);
    CHECK(record.finished_rows() == 2);
    CHECK(std::string(record.case_in_flight_shown()) == "\"third\" [op=find,size=1000]");
    REQUIRE(record.write_abnormal_end("SIGSEGV"));
    CHECK_FALSE(record.write_abnormal_end("SIGSEGV"));  // once
    const Json doc = Json::parse(glint::test::read_file(dir.file("out.json")));
    CHECK(doc.at("schema").as_number() == 2);
    CHECK(doc.at("meta").at("host").as_string() == "test-host");
    const Json& interrupted = doc.at("meta").at("interrupted");
    CHECK(interrupted.at("by").as_string() == "SIGSEGV");
    CHECK(interrupted.at("duringCase").as_string() == "third");
    CHECK(interrupted.at("duringCaseLabels") == Json::parse(R"({"op": "find", "size": "1000"})"));
    CHECK(interrupted.at("finishedRows").as_number() == 2);
    CHECK(doc.at("columns") == Json(Json::Array{column_json(kColumns[0])}));
    REQUIRE(doc.at("rows").size() == 2);
    CHECK(doc.at("rows").as_array()[0] == written(row_json(measured("first", 1.25), kColumns)));
    CHECK(doc.at("rows").as_array()[1].at("error").as_string() == "after: mismatch");
    // The document holds what the journal held: the journal is gone, and nothing else is left.
    CHECK(dir.entries() == std::vector<std::string>{"out.json"});
}

TEST_CASE("run record: between cases the document says so, and without rows it is still valid") {
    TempDir dir{"glint-record-test"};
    const auto out = target(dir.file("out.json"));
    RunRecord record;
    std::string note;
    Json empty_meta = Json::object();
    record.start(&out, empty_meta, note);
    REQUIRE(record.write_abnormal_end("exit(0)"));
    const Json doc = Json::parse(glint::test::read_file(dir.file("out.json")));
    CHECK(doc.at("meta").at("interrupted").at("duringCase").is_null());
    CHECK(doc.at("meta").at("interrupted").at("duringCaseLabels").is_null());
    CHECK(std::string(record.case_in_flight_shown()) == "null");
    CHECK(doc.at("rows").size() == 0);
    CHECK(doc.at("columns").size() == 0);
}

TEST_CASE("run record: the journal reads back into a document, skipping a line cut short") {
    TempDir dir{"glint-record-test"};
    const auto out = target(dir.file("out.json"));
    RunRecord record;
    std::string note;
    record.start(&out, meta(), note);
    fill(record);
    const std::string journal = record.journal_path();
    { std::ofstream(journal, std::ios::app) << "{\"row\": {\"name\": \"cut"; }  // a crash mid-line
    std::string problem;
    const auto recovered = read_journal(journal, problem);
    REQUIRE(recovered.has_value());
    CHECK(recovered->rows == 2);
    CHECK(recovered->skipped_lines == 1);
    const Json& doc = recovered->document;
    CHECK(doc.at("schema").as_number() == 2);
    CHECK(doc.at("meta").at("host").as_string() == "test-host");
    CHECK(doc.at("meta").at("interrupted").at("duringCase").as_string() == "third");
    CHECK(doc.at("meta").at("interrupted").at("duringCaseLabels") ==
          Json::parse(R"({"op": "find", "size": "1000"})"));
    CHECK(doc.at("meta").at("interrupted").at("skippedLines").as_number() == 1);
    CHECK(doc.at("rows").as_array()[0] == written(row_json(measured("first", 1.25), kColumns)));
    CHECK(doc.at("columns").size() == 1);
    record.finish();
    CHECK_FALSE(fs::exists(journal));
    CHECK(dir.entries().empty());

    std::ofstream(dir.file("not-a-journal")) << "{\"schema\": 2}\n";
    CHECK_FALSE(read_journal(dir.file("not-a-journal"), problem).has_value());
    CHECK(problem.find("is not a glint journal") != std::string::npos);
}

TEST_CASE("run record: without a target it only names the case in flight") {
    RunRecord record;
    std::string note;
    record.start(nullptr, meta(), note);
    fill(record);
    CHECK(std::string(record.case_in_flight_shown()) == "\"third\" [op=find,size=1000]");
    CHECK(record.journal_path().empty());
    CHECK_FALSE(record.write_abnormal_end("SIGSEGV"));
}
