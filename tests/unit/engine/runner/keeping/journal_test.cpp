// A journal recovered from text glint did not write (engine/runner/keeping/journal.hpp).
#include <doctest/doctest.h>

#include "engine/runner/keeping/journal.hpp"

using glint::engine::journal_from_text;

TEST_CASE(
    "journal: a first line whose meta already holds a scalar 'interrupted' is recovered, not a "
    "crash") {
    // Found by fuzz/journal: meta.interrupted of another type was indexed as an object.
    std::string problem;
    const auto recovered = journal_from_text(
        "{\"glintJournal\": 1, \"meta\": {\"host\": \"h\", \"interrupted\": 5}}\n{\"case\": \"a\", "
        "\"labels\": {}}\n",
        "j", problem);
    REQUIRE_MESSAGE(recovered.has_value(), problem);
    const auto& interrupted = recovered->document.at("meta").at("interrupted");
    CHECK(interrupted.at("duringCase").as_string() == "a");
    CHECK(recovered->document.at("meta").at("host").as_string() == "h");
}
