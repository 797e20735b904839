#include "engine/runner/keeping/table_guard.hpp"

#include <cerrno>
#include <thread>

namespace glint::engine {

void TableGuard::pass(const std::function<void()>& call) {
    std::unique_lock lock(mutex_);
    if (abandoned_) return;
    errno = 0;
    call();
    const int error = errno;
    if (write_error_ == 0 && std::ferror(out_)) {
        write_error_ = error ? error : EIO;
        if (write_error_ == EPIPE && on_broken_pipe) on_broken_pipe();
    }
}

void TableGuard::begin_group(const GroupInfo& group) {
    pass([&] {
        inner().begin_group(group);
        group_open_ = true;
    });
}

void TableGuard::end_group() {
    pass([&] {
        inner().end_group();
        group_open_ = false;
    });
}

void TableGuard::diagnostic(const std::string& line) {
    std::unique_lock lock(mutex_);
    if (abandoned_) return TableReporter::diagnostic(line);  // no table left to wait for
    inner().diagnostic(line);
}

void TableGuard::end_open_group() {
    pass([&] {
        if (group_open_) inner().end_group();
        group_open_ = false;
    });
}

bool TableGuard::abandon(std::chrono::milliseconds wait) {
    // try_lock in a loop rather than a timed mutex: clang 14's TSan does not see the
    // pthread_mutex_clocklock that std::timed_mutex uses with glibc 2.36, and reports its unlock.
    std::unique_lock lock(mutex_, std::defer_lock);
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (!lock.try_lock()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (!abandoned_ && group_open_) inner().end_group();
    group_open_ = false;
    abandoned_ = true;
    std::fflush(out_);
    return true;
}

}  // namespace glint::engine
