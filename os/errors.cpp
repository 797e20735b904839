#include "os/errors.hpp"

#include <cerrno>
#include <cstring>

namespace glint::os {
namespace {

const char* errno_symbol(int error) {
    switch (error) {
        case EACCES:
            return "EACCES";
        case EPERM:
            return "EPERM";
        case ENOENT:
            return "ENOENT";
        case EOPNOTSUPP:
            return "EOPNOTSUPP";
        case ENODEV:
            return "ENODEV";
        case EINTR:
            return "EINTR";
        case EINVAL:
            return "EINVAL";
        case EBUSY:
            return "EBUSY";
        case EMFILE:
            return "EMFILE";
        case ENOSYS:
            return "ENOSYS";
        case E2BIG:
            return "E2BIG";
        case ENOSPC:
            return "ENOSPC";
        case EFAULT:
            return "EFAULT";
        case EBADF:
            return "EBADF";
        default:
            return nullptr;
    }
}

}  // namespace

std::string describe_errno(int error) {
    const char* symbol = errno_symbol(error);
    const std::string text = std::strerror(error);
    if (symbol) return std::string(symbol) + " (" + text + ")";
    return "errno " + std::to_string(error) + " (" + text + ")";
}

bool is_permission_error(int error) { return error == EACCES || error == EPERM; }
bool is_unsupported_error(int error) {
    return error == ENOENT || error == EOPNOTSUPP || error == ENODEV;
}

}  // namespace glint::os
