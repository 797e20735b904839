// os/errors.hpp: what an errno from the kernel means, as data every layer above can word.
// Portable (<cerrno> and strerror only): compiled for every OS back end.
#pragma once

#include <string>

namespace glint::os {

// "EACCES (Permission denied)"; values without a symbol here as "errno 123 (...)".
std::string describe_errno(int error);

bool is_permission_error(int error);   // EACCES, EPERM
bool is_unsupported_error(int error);  // ENOENT, EOPNOTSUPP, ENODEV

}  // namespace glint::os
