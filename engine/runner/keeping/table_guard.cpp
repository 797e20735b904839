#include "engine/runner/keeping/table_guard.hpp"

#include <cerrno>
#include <thread>

namespace glint::engine {

template <class F>
void TableGuard::forward(F&& call) {
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

void TableGuard::header(const std::vector<std::string>& lines) {
    forward([&] { inner_.header(lines); });
}

void TableGuard::begin_group(const GroupInfo& group) {
    forward([&] {
        inner_.begin_group(group);
        group_open_ = true;
    });
}

void TableGuard::case_started(const std::string& name) {
    forward([&] { inner_.case_started(name); });
}

void TableGuard::case_progress() {
    forward([&] { inner_.case_progress(); });
}

void TableGuard::case_finished(const Row& row) {
    forward([&] { inner_.case_finished(row); });
}

void TableGuard::columns_grew(const std::vector<catalog::MetricDescriptor>& columns) {
    forward([&] { inner_.columns_grew(columns); });
}

void TableGuard::end_group() {
    forward([&] {
        inner_.end_group();
        group_open_ = false;
    });
}

void TableGuard::diagnostic(const std::string& line) {
    std::unique_lock lock(mutex_);
    if (abandoned_) return TableReporter::diagnostic(line);  // no table left to wait for
    inner_.diagnostic(line);
}

void TableGuard::end_open_group() {
    forward([&] {
        if (group_open_) inner_.end_group();
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
    if (!abandoned_ && group_open_) inner_.end_group();
    group_open_ = false;
    abandoned_ = true;
    std::fflush(out_);
    return true;
}

}  // namespace glint::engine
