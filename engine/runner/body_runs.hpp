// engine/runner/body_runs.hpp: the runs of registration bodies a mode makes. Every mode (the
// plain run, discovery, the bench run) runs each registration's body once per parameter
// combination (engine/registry/params.hpp) that --filter may select, in registration order,
// with glint::param() reading that combination while the body runs.
#pragma once

#include "engine/model/row.hpp"
#include "engine/registry/params.hpp"
#include "engine/registry/registry.hpp"
#include "engine/runner/case_filter.hpp"

namespace glint::engine {

// One run of a body: its registration, its parameter combination and that combination's labels
// (sorted by key).
struct BodyRun {
    const Registration& registration;
    const ParamInstance& instance;
    const Labels& labels;
    std::size_t index = 0;  // the instance's place in instances(registration)
};

// Calls run(BodyRun) for each run, with a ParamScope installed around the call.
template <class Run>
void for_each_body_run(const CaseFilter& filter, Run&& run) {
    for (const Registration& r : registrations()) {
        if (!filter.may_select_under(r.name)) continue;
        const std::vector<ParamInstance> all = instances(r);
        for (std::size_t i = 0; i < all.size(); ++i) {
            const Labels labels = sorted_labels(param_labels(all[i]));
            if (!filter.may_select_labels(labels)) continue;
            ParamScope scope(all[i]);
            run(BodyRun{r, all[i], labels, i});
        }
    }
}

}  // namespace glint::engine
