// Tracepoint ids from tracefs: raw open/read of events/<system>/<name>/id through sys().
#include <unistd.h>

#include <cerrno>
#include <charconv>

#include "os/linux/sys.hpp"
#include "os/tracefs.hpp"

namespace glint::os {

std::vector<std::string> default_tracefs_roots() {
    return {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
}

std::string find_tracefs(const std::vector<std::string>& roots) {
    for (const auto& root : roots)
        if (linux_::sys().access((root + "/events").c_str(), F_OK) == 0) return root;
    return {};
}

TracepointLookup lookup_tracepoint(const std::string& tracefs, const std::string& system,
                                   const std::string& name) {
    TracepointLookup out;
    out.path = tracefs + "/events/" + system + "/" + name + "/id";
    out.event.name = system + ":" + name;
    std::string text;
    if (!linux_::read_small_file(out.path, text)) {
        out.error = errno;
        out.outcome = out.error == ENOENT || out.error == ENOTDIR
                          ? TracepointLookup::Outcome::missing
                          : TracepointLookup::Outcome::unreadable;
        return out;
    }
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    std::uint64_t id = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size()) {
        out.error = EINVAL;
        out.outcome = TracepointLookup::Outcome::unreadable;
        return out;
    }
    out.outcome = TracepointLookup::Outcome::found;
    out.event.type = kTracepointEventType;
    out.event.config = id;
    return out;
}

}  // namespace glint::os
