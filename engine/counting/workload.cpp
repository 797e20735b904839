#include "engine/counting/workload.hpp"

namespace glint::engine {

void Workload::after_one() const {
    Outcome outcome = per_call->after();
    if (!outcome.ok()) throw CaseFailure(outcome.error());
}

}  // namespace glint::engine
