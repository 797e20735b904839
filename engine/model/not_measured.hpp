// engine/model/not_measured.hpp: the value of a quantity that was not measured. Inside the
// engine it is NaN; JSON writes it as null and the tables as "—", never 0.
#pragma once

#include <limits>

namespace glint::engine {

inline constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

}  // namespace glint::engine
