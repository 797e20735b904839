// Shared pieces of the <glint/hot.hpp> tests on the emulated x86 PMU: the rig's "read(2)"
// fallback and a {e0, e1} group attached to the rig's pages.
#pragma once

#include <glint/hot.hpp>

#include <cstddef>
#include <cstdint>

#include "support/emulated_pmu.hpp"

namespace glint::test {

// The rig's "read(2)": the counts the kernel would return and the leader's time_enabled -
// time_running (Group runs the generic protocol itself first, for the pages that grant a user
// read).
struct RigFallback {
    EmulatedPmu* pmu = nullptr;
    int events[hot::kMaxCounters] = {};
    int calls = 0;

    static void read(const void* context, std::int64_t* counts, std::size_t count,
                     std::int64_t& descheduled_ns) {
        auto* self = const_cast<RigFallback*>(static_cast<const RigFallback*>(context));
        ++self->calls;
        for (std::size_t i = 0; i < count; ++i) counts[i] = self->pmu->count(self->events[i]);
        descheduled_ns = self->pmu->descheduled_ns(self->events[0]);
    }
};

// A group over events e0 (the leader) and e1 of `pmu`, `fallback` its read(2).
inline hot::Group<2> attach(EmulatedPmu& pmu, RigFallback& fallback, int e0, int e1) {
    fallback.pmu = &pmu;
    fallback.events[0] = e0;
    fallback.events[1] = e1;
    hot::Attachment a;
    a.pages[0] = pmu.page(e0);
    a.pages[1] = pmu.page(e1);
    a.slow = &RigFallback::read;
    a.slow_context = &fallback;
    return hot::Group<2>::attach(a);
}

}  // namespace glint::test
