// Off Linux there is no perf_event: a sampler never opens (ENOSYS), so the profile pass reports
// "unavailable" with that reason.
#include <cerrno>
#include <utility>

#include "os/sampling.hpp"

namespace glint::os {

Sampler::~Sampler() = default;
Sampler::Sampler(Sampler&& other) noexcept { *this = std::move(other); }
Sampler& Sampler::operator=(Sampler&&) noexcept { return *this; }
int Sampler::open(const SamplerSpec&) { return ENOSYS; }
void Sampler::close() {}
bool Sampler::enable() {
    errno = ENOSYS;
    return false;
}
bool Sampler::disable() {
    errno = ENOSYS;
    return false;
}
CodeRange Sampler::toggle_code() { return {}; }
void Sampler::drain(const SampleSink&) {}
std::size_t Sampler::pending_bytes() const { return 0; }
bool Sampler::times(SamplerTimes&) const {
    errno = ENOSYS;
    return false;
}

}  // namespace glint::os
