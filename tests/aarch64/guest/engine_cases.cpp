// tests/aarch64/guest/engine_cases.cpp: GLINT_BENCH cases for the engine tests (run in a child
// process of the guest test binary by engine_run.cpp; the doctest run itself ignores them).
//   guest/adds5, guest/adds13   bodies of known shape (engine_cases.hpp)
//   guest/ticked/adds21         a body of known shape counted kernel+user over a pass long
//                               enough that the guest's timer ticks land in it
//   guest/threads/adds21        Adds21 on 1, 2 and 4 threads at once (glint::threads): each
//                               thread counts itself, the row sums them
//   guest/contended/adds5       the same body while a competing group of kCompetingEvents
//                               instruction counters is open on this thread (opened in the
//                               case's setup, after the engine's group): more events than
//                               counters, so the counting pass is multiplexed
#include <glint/bench.hpp>

#include <linux/perf_event.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine_cases.hpp"
#include "os/linux/sys.hpp"

namespace {

namespace linux_ = glint::os::linux_;

// kCompetingEvents user-space instruction counters in one group, counting from the open.
class CompetingGroup {
  public:
    CompetingGroup() {
        for (unsigned i = 0; i < glint::guest::kCompetingEvents; ++i) {
            perf_event_attr attr{};
            attr.size = sizeof attr;
            attr.type = PERF_TYPE_HARDWARE;
            attr.config = PERF_COUNT_HW_INSTRUCTIONS;
            attr.exclude_kernel = 1;
            attr.exclude_hv = 1;
            const int fd = linux_::sys().perf_event_open(&attr, 0, -1, fds_.empty() ? -1 : fds_[0],
                                                         PERF_FLAG_FD_CLOEXEC);
            if (fd < 0) {
                const std::string why = std::strerror(errno);
                close_all();
                throw std::runtime_error("cannot open the competing group: " + why);
            }
            fds_.push_back(fd);
        }
    }
    ~CompetingGroup() { close_all(); }

  private:
    void close_all() {
        for (auto it = fds_.rbegin(); it != fds_.rend(); ++it) linux_::sys().close(*it);
        fds_.clear();
    }
    std::vector<int> fds_;
};

}  // namespace

GLINT_BENCH("guest/adds5") {
    glint::guest::Adds5 body;
    glint::iter(body);
}

GLINT_BENCH("guest/adds13") {
    glint::guest::Adds13 body;
    glint::iter(body);
}

GLINT_BENCH("guest/ticked/adds21") {
    glint::guest::Adds21 body;
    glint::iter(body);
}

GLINT_BENCH("guest/threads/adds21", glint::threads({1, 2, 4})) {
    glint::guest::Adds21 body;
    glint::iter(body);
}

GLINT_BENCH("guest/contended/adds5") {
    CompetingGroup competitor;
    glint::guest::Adds5 body;
    glint::iter(body);
}
