#include "engine/profile/flame_graph.hpp"

#include <algorithm>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "engine/model/sanitize.hpp"
#include "engine/profile/function_name.hpp"

namespace glint::engine::profile {
namespace {

struct Node {
    std::uint64_t samples = 0;
    std::map<std::string, std::unique_ptr<Node>> children;  // by name: left to right
};

// The HTML report's escaping rule (report::html::escape is sanitize::html): one for every page.
std::string escape(std::string_view text) { return sanitize::html(text); }

// A warm colour (reds to yellows) from the name: stable across runs.
std::string colour(const std::string& name) {
    std::uint32_t h = 2166136261u;  // FNV-1a
    for (unsigned char c : name) h = (h ^ c) * 16777619u;
    const int r = 205 + static_cast<int>(h % 50);
    const int g = 80 + static_cast<int>((h >> 8) % 140);
    const int b = 40 + static_cast<int>((h >> 16) % 40);
    return fmt::format("rgb({},{},{})", r, g, b);
}

// `name` in at most `chars` characters, shortened by rule (function_name.hpp: template
// arguments, then parameters, then qualifiers, a cut last); "" when under two fit.
std::string fitted(const std::string& name, std::size_t chars) {
    return chars < 2 ? std::string() : shorten_function_name(name, chars);
}

std::size_t depth(const Node& n) {
    std::size_t d = 0;
    for (const auto& [name, child] : n.children) d = std::max(d, depth(*child));
    return d + 1;
}

struct Drawer {
    const FlameStyle& style;
    double px_per_sample;
    std::uint64_t total;
    std::string out;

    void bar(const std::string& name, const Node& n, double x, std::size_t level) {
        const double w = static_cast<double>(n.samples) * px_per_sample;
        if (w < style.min_width_px) return;
        const double y = static_cast<double>(level) * style.bar_px;
        out += fmt::format(
            "<g><title>{} ({} samples, {:.1f}%)</title><rect x=\"{:.2f}\" y=\"{:.2f}\" "
            "width=\"{:.2f}\" height=\"{:.2f}\" fill=\"{}\" rx=\"2\"/>",
            escape(name), n.samples,
            100.0 * static_cast<double>(n.samples) / static_cast<double>(total), x, y, w,
            style.bar_px - 1, colour(name));
        if (w >= style.min_text_px) {
            const std::string label =
                fitted(name, static_cast<std::size_t>(std::max(0.0, (w - 6) / style.char_px)));
            if (!label.empty())
                out += fmt::format("<text x=\"{:.2f}\" y=\"{:.2f}\">{}</text>", x + 3,
                                   y + style.bar_px - 4, escape(label));
        }
        out += "</g>\n";
        double cx = x;
        for (const auto& [child_name, child] : n.children) {
            bar(child_name, *child, cx, level + 1);
            cx += static_cast<double>(child->samples) * px_per_sample;
        }
    }
};

}  // namespace

std::string flame_graph_svg(const std::vector<std::pair<std::string, std::uint64_t>>& stacks,
                            const FlameStyle& style) {
    Node root;
    for (const auto& [stack, count] : stacks) {
        root.samples += count;
        Node* at = &root;
        std::size_t start = 0;
        while (start <= stack.size()) {
            std::size_t end = stack.find(';', start);
            if (end == std::string::npos) end = stack.size();
            auto& child = at->children[stack.substr(start, end - start)];
            if (!child) child = std::make_unique<Node>();
            child->samples += count;
            at = child.get();
            start = end + 1;
        }
    }
    if (root.samples == 0) return {};
    const double height = static_cast<double>(depth(root)) * style.bar_px;
    Drawer d{style, style.width_px / static_cast<double>(root.samples), root.samples, {}};
    d.out = fmt::format(
        "<svg class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" "
        "height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\" font-family=\"monospace\" "
        "font-size=\"11\">\n",
        style.width_px, height, style.width_px, height);
    d.bar(style.root, root, 0, 0);
    d.out += "</svg>\n";
    return d.out;
}

std::string flame_graph_from_profile(const Json& profile, const FlameStyle& style) {
    const Json* folded = profile.is_object() ? profile.find("folded") : nullptr;
    if (!folded || !folded->is_array()) return {};
    std::vector<std::pair<std::string, std::uint64_t>> stacks;
    for (const Json& s : folded->as_array()) {
        const Json* stack = s.find("stack");
        const Json* samples = s.find("samples");
        if (stack && samples && stack->is_string() && samples->is_number() &&
            samples->as_number() > 0)
            stacks.emplace_back(stack->as_string(),
                                static_cast<std::uint64_t>(samples->as_number()));
    }
    return flame_graph_svg(stacks, style);
}

}  // namespace glint::engine::profile
