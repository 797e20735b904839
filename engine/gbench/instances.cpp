// The drop-in's family registry and Google Benchmark's instance names.
#include <fmt/format.h>

#include "engine/gbench/instances.hpp"

namespace glint::gbench {
namespace {

std::string instance_name(const benchmark::internal::Benchmark::Spec& s,
                          const std::vector<std::int64_t>& args, int threads) {
    std::vector<std::string> parts{s.name};
    std::string joined;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (!joined.empty()) joined += '/';
        if (i < s.arg_names.size() && !s.arg_names[i].empty()) joined += s.arg_names[i] + ":";
        joined += std::to_string(args[i]);
    }
    parts.push_back(joined);
    if (s.min_time != 0) parts.push_back(fmt::format("min_time:{:0.3f}", s.min_time));
    if (s.min_warmup_time != 0)
        parts.push_back(fmt::format("min_warmup_time:{:0.3f}", s.min_warmup_time));
    if (s.iterations != 0) parts.push_back(fmt::format("iterations:{}", s.iterations));
    if (s.repetitions != 0) parts.push_back(fmt::format("repeats:{}", s.repetitions));
    std::string time_type = s.process_cpu_time ? "process_time" : "";
    if (s.use_manual_time || s.use_real_time) {
        if (!time_type.empty()) time_type += '/';
        time_type += s.use_manual_time ? "manual_time" : "real_time";
    }
    parts.push_back(time_type);
    if (!s.thread_counts.empty()) parts.push_back(fmt::format("threads:{}", threads));
    std::string name;
    for (const std::string& p : parts) {
        if (!name.empty() && !p.empty()) name += '/';
        name += p;
    }
    return name;
}

}  // namespace

std::vector<std::unique_ptr<Family>>& families() {
    static std::vector<std::unique_ptr<Family>>
        all;  // function-local: safe during static initialisation
    return all;
}

std::vector<Instance> expand_all() {
    std::vector<Instance> out;
    int family_index = 0;
    for (const auto& owned : families()) {
        const Family& f = *owned;
        const auto& s = f.benchmark->spec();
        const std::vector<std::vector<std::int64_t>> args =
            s.args.empty() ? std::vector<std::vector<std::int64_t>>{{}} : s.args;
        const std::vector<int> threads =
            s.thread_counts.empty() ? std::vector<int>{1} : s.thread_counts;
        int per_family = 0;
        for (const auto& a : args)
            for (int t : threads)
                out.push_back(
                    Instance{&f, a, t, instance_name(s, a, t), family_index, per_family++});
        ++family_index;
    }
    return out;
}

}  // namespace glint::gbench

namespace benchmark::internal {

Benchmark* RegisterFamily(Benchmark* family, bool optimized, bool assertions) {
    glint::gbench::families().push_back(std::unique_ptr<glint::gbench::Family>(
        new glint::gbench::Family{std::unique_ptr<Benchmark>(family), optimized, assertions}));
    return family;
}

}  // namespace benchmark::internal
