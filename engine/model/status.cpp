#include "engine/model/status.hpp"

namespace glint::engine {

const char* to_string(Status::State state) {
    switch (state) {
        case Status::State::available: return "available";
        case Status::State::degraded: return "degraded";
        case Status::State::unavailable: return "unavailable";
        case Status::State::not_built: return "not-built";
    }
    return "unavailable";
}

}  // namespace glint::engine
