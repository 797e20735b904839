#include "os/linux/x86_64/rdpmc_sysfs.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "os/linux/sys.hpp"

namespace glint::os::linux_ {
namespace {

std::string devices_dir(const std::string& sysfs_root) {
    return sysfs_root + "/bus/event_source/devices";
}

// "1\n" -> 1; anything else -> false.
bool parse_value(std::string_view text, int& value) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
    if (text.empty()) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::vector<RdpmcSetting> read_rdpmc_settings(const std::string& sysfs_root) {
    std::vector<RdpmcSetting> settings;
    // Listing a directory is not a call the sys() seam covers; the reads below are.
    std::error_code ec;
    for (std::filesystem::directory_iterator it(devices_dir(sysfs_root), ec), end; !ec && it != end;
         it.increment(ec)) {
        const std::string path = (it->path() / "rdpmc").string();
        std::error_code exists_ec;
        if (!std::filesystem::exists(path, exists_ec)) continue;
        RdpmcSetting s;
        s.pmu = it->path().filename().string();
        s.path = path;
        std::string text;
        if (!read_small_file(path, text)) {
            s.error = std::string("cannot read ") + path + ": " + std::strerror(errno);
        } else if (!parse_value(text, s.value)) {
            s.value = -1;
            s.error = "unexpected content in " + path;
        }
        settings.push_back(std::move(s));
    }
    std::sort(settings.begin(), settings.end(),
              [](const RdpmcSetting& a, const RdpmcSetting& b) { return a.pmu < b.pmu; });
    return settings;
}

std::string_view rdpmc_meaning(int value) {
    switch (value) {
        case 0:
            return "user rdpmc disabled for every process";
        case 1:
            return "user rdpmc allowed while the process has a perf event mmapped";
        case 2:
            return "user rdpmc allowed for every process";
        case -1:
            return "not readable";
        default:
            return "a value this build does not know";
    }
}

std::string describe_rdpmc(const std::vector<RdpmcSetting>& settings,
                           const std::string& sysfs_root) {
    if (settings.empty()) {
        return "no rdpmc file in " + devices_dir(sysfs_root) + " (no x86 core PMU exposed)";
    }
    std::string line;
    bool same = true;
    for (const RdpmcSetting& s : settings) {
        if (!line.empty()) line += ", ";
        line += s.pmu + "/rdpmc=" + (s.value >= 0 ? std::to_string(s.value) : std::string("?"));
        same = same && s.value == settings.front().value;
    }
    if (same) {
        line += " (" + std::string(rdpmc_meaning(settings.front().value));
        if (settings.front().value < 0 && !settings.front().error.empty())
            line += ": " + settings.front().error;
        return line + ")";
    }
    line += " (";
    for (std::size_t i = 0; i < settings.size(); ++i) {
        if (i > 0) line += "; ";
        line += settings[i].pmu + ": " + std::string(rdpmc_meaning(settings[i].value));
    }
    return line + ")";
}

}  // namespace glint::os::linux_
