// engine/report/json_rows.hpp: a row read back from the form row_json writes (json_report.hpp),
// for rows that crossed a process boundary (--isolate's children) or a file.
//
// The round trip keeps registration, name, labels, timing (with every sample and repetition
// median), cells, estimated flags, countIterations, error and the stability fields
// (engine/report/stability_json.hpp); numbers keep what the JSON keeps (6 significant digits),
// and the fields tiers add (Row::extra_fields). A cell
// takes its header, format and class from the descriptor of the same name in `catalog`; a name
// the catalog lacks becomes a count cell headed with its name. A null metric stays nan.
#pragma once

#include <vector>

#include "catalog/metric.hpp"
#include "engine/model/json.hpp"
#include "engine/model/row.hpp"

namespace glint::engine {

// Throws std::runtime_error naming what is missing when `json` is not a row.
Row row_from_json(const Json& json, const std::vector<catalog::MetricDescriptor>& catalog);

}  // namespace glint::engine
