#include "engine/profile/profile.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "engine/model/sanitize.hpp"

namespace glint::engine::profile {

double share_error(std::uint64_t n, std::uint64_t total) {
    return total == 0 ? 0.0 : std::sqrt(static_cast<double>(n)) / static_cast<double>(total);
}

std::string folded_frame(const std::string& function) {
    std::string out = sanitize::terminal(function);  // one line, no control byte, valid UTF-8
    std::replace(out.begin(), out.end(), ';', ':');
    return out;
}

FrameId Profile::intern(const FrameName& name) {
    auto [it, inserted] = ids_.emplace(name, static_cast<FrameId>(names_.size()));
    if (inserted) {
        names_.push_back(name);
        stats_.emplace_back();
    }
    return it->second;
}

void Profile::add(const std::vector<FrameAt>& stack, bool complete) {
    if (stack.empty()) return;
    ++samples_;
    if (complete) ++complete_;
    Stats& leaf = stats_[stack.front().id];
    ++leaf.self;
    ++leaf.lines[{stack.front().file, stack.front().line}];
    std::vector<FrameId> ids;
    ids.reserve(stack.size());
    std::set<FrameId> seen;  // recursion: a function counts once per sample
    for (const FrameAt& f : stack) {
        ids.push_back(f.id);
        if (seen.insert(f.id).second) ++stats_[f.id].inclusive;
    }
    ++stacks_[{std::move(ids), complete}];
}

std::vector<FunctionShare> Profile::functions() const {
    std::vector<FunctionShare> out;
    const double n = static_cast<double>(samples_);
    for (FrameId id = 0; id < names_.size(); ++id) {
        const Stats& s = stats_[id];
        FunctionShare f;
        f.name = names_[id];
        f.self = s.self;
        f.inclusive = s.inclusive;
        f.self_share = n > 0 ? static_cast<double>(s.self) / n : 0;
        f.self_error = share_error(s.self, samples_);
        f.inclusive_share = n > 0 ? static_cast<double>(s.inclusive) / n : 0;
        std::uint64_t best = 0;
        for (const auto& [where, count] : s.lines)  // the most sampled known line
            if (where.second != 0 && count > best) {
                best = count;
                f.file = where.first;
                f.line = where.second;
            }
        out.push_back(std::move(f));
    }
    std::sort(out.begin(), out.end(), [](const FunctionShare& a, const FunctionShare& b) {
        if (a.self != b.self) return a.self > b.self;
        if (a.inclusive != b.inclusive) return a.inclusive > b.inclusive;
        return a.name < b.name;
    });
    return out;
}

std::vector<std::pair<std::string, std::uint64_t>> Profile::folded(const std::string& root) const {
    std::map<std::string, std::uint64_t> merged;  // distinct ids can share a printed name
    for (const auto& [key, count] : stacks_) {
        const auto& [ids, complete] = key;
        std::string line = folded_frame(root);
        if (!complete) line += std::string(line.empty() ? "" : ";") + "[incomplete stack]";
        for (auto it = ids.rbegin(); it != ids.rend(); ++it)
            line += (line.empty() ? "" : ";") + folded_frame(names_[*it].function);
        merged[line] += count;
    }
    return {merged.begin(), merged.end()};
}

}  // namespace glint::engine::profile
