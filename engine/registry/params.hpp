// engine/registry/params.hpp: a registration's parameters (glint::range, glint::values) as the
// runner uses them.
//  - instances(r): every combination, first parameter varying slowest; none: one empty instance.
//  - While a ParamScope lives, glint::param(name) reads its instance (innermost wins); outside
//    any scope it throws std::logic_error.
//  - registration_problem(): one line naming the registration and the fix for a bad range, an
//    empty or repeated list, a parameter named twice or a complexity fit over a missing one.
// Rationale and details: docs/rationale.md, "engine/registry/params.hpp".
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/model/row.hpp"
#include "engine/registry/registry.hpp"

namespace glint::engine {

struct ParamValue {
    std::string name;
    std::int64_t value = 0;
};
using ParamInstance = std::vector<ParamValue>;

std::vector<ParamInstance> instances(const Registration& r);

// The instance as labels: {name, decimal value} per parameter, in declaration order.
Labels param_labels(const ParamInstance& instance);

// `labels` with every label of `instance` set (replacing a label of the same key).
std::vector<std::pair<std::string, std::string>> with_param_labels(
    std::vector<std::pair<std::string, std::string>> labels, const ParamInstance& instance);

class ParamScope {
  public:
    explicit ParamScope(const ParamInstance& instance);
    ~ParamScope();
    ParamScope(const ParamScope&) = delete;
    ParamScope& operator=(const ParamScope&) = delete;

  private:
    const ParamInstance* previous_;
};

// The threads a body run asks for: its "threads" parameter (glint::threads), 1 without one.
unsigned threads_of(const ParamInstance& instance);

// The name of the parameter r's complexity fit runs over ("" when r asks for no fit).
std::string complexity_param(const Registration& r);

// The first problem among every registration's parameters (its metrics' included), or nullopt.
std::optional<std::string> registration_problem(const std::vector<Registration>& all);

// Why `metric` cannot scale by its param in `r` (nullopt: no param, or one r declares): one
// line naming the registration, the metric, the parameter and the fix.
std::optional<std::string> metric_param_problem(const Registration& r, const glint::Metric& metric);

// `metrics` for r's body run `instance`: an amount with a param is multiplied by that
// parameter's value (the param then cleared). Throws MetricParamError with
// metric_param_problem's line for a parameter r does not declare.
struct MetricParamError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};
std::vector<glint::Metric> resolve_metrics(const Registration& r, const ParamInstance& instance,
                                           std::vector<glint::Metric> metrics);

}  // namespace glint::engine
