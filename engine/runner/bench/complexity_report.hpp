// engine/runner/bench/complexity_report.hpp: glint::complexity() in a run. Rows of a registration
// that asked for a fit are grouped into series (same path, same labels but the fitted
// parameter); each series is fitted (engine/stats/complexity.hpp) on its rows' median time per
// iteration once the run ends, and reported as one line under the tables and in JSON
// meta.complexity. Error rows take no part.
#pragma once

#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "engine/model/row.hpp"
#include "engine/registry/registry.hpp"

namespace glint::engine {

class ComplexityCollector {
  public:
    // Records a measured row (a no-op for a registration without glint::complexity(), and for
    // error rows). `path` is the row's --filter path (case_filter.hpp).
    void add(const Registration& registration, const std::string& path, const Row& row);

    bool empty() const { return series_.empty(); }

    // "complexity: sum ~ O(n): 1.31 ns × size, rms 2.4% (size 256…16384, 4 points)", or the
    // reason no fit could be made; one line per series, in first-seen order.
    std::vector<std::string> lines() const;

    // meta.complexity: one object per series (registration, path, labels, parameter, points,
    // model, coefficientNs, rms, models{...}; or reason), in first-seen order.
    Json json() const;

  private:
    struct Series {
        std::string registration;
        std::string path;
        std::string parameter;
        Labels others;  // the row's labels without the parameter
        std::vector<double> n;
        std::vector<double> median_ns;
    };
    std::vector<Series> series_;
};

}  // namespace glint::engine
