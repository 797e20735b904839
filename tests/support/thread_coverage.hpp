// tests/support/thread_coverage.hpp: rows[].threadCoverage as the tests hand it to
// CaseMeasurer::coverage_line and EscapedWork (engine/tiers/escaped_work.hpp): the object with
// no thread escaped and no reason given, and one entry of its `escaped` list.
#pragma once

#include <string>

#include "engine/model/json.hpp"

namespace glint::test {

// {threads, counted: threads, missed, missedWhy: [], escaped: []}; `missed` null: not known.
inline engine::Json thread_coverage(unsigned long threads = 1,
                                    engine::Json missed = engine::Json()) {
    engine::Json coverage = engine::Json::object();
    coverage["threads"] = threads;
    coverage["counted"] = threads;
    coverage["missed"] = std::move(missed);
    coverage["missedWhy"] = engine::Json::array();
    coverage["escaped"] = engine::Json::array();
    return coverage;
}

// One `escaped` entry: {tid, name, cpuNs, existedBefore} (existedBefore null: not known).
inline engine::Json escaped_thread(long tid, const std::string& name, double cpu_ns,
                                   engine::Json existed_before) {
    engine::Json t = engine::Json::object();
    t["tid"] = tid;
    t["name"] = name;
    t["cpuNs"] = cpu_ns;
    t["existedBefore"] = std::move(existed_before);
    return t;
}

}  // namespace glint::test
