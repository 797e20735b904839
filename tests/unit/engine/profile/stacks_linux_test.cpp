// Raw samples into profile stacks (engine/profile/stacks.hpp), with this binary's own functions
// as the sampled code: return addresses named one byte back, the cut at the pass's entry,
// kernel and unnamed frames.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <string>

#include "engine/profile/sampled_pass.hpp"
#include "engine/profile/stacks.hpp"

using namespace glint::engine::profile;

namespace glint_stacks_test {
[[gnu::noinline]] std::uint64_t leaf_fn(std::uint64_t x) {
    asm volatile("" : "+r"(x));
    return x * 3;
}
[[gnu::noinline]] std::uint64_t caller_fn(std::uint64_t x) {
    asm volatile("" : "+r"(x));
    return leaf_fn(x) + 1;
}
[[gnu::noinline]] std::uint64_t outside_fn(std::uint64_t x) {
    asm volatile("" : "+r"(x));
    return caller_fn(x) + 2;
}
const char kData[] = "glint stacks test: data, not code";
}  // namespace glint_stacks_test

// Stands for glint's header-only loop (glint::detail::run_inputs<…>) around the case's code.
namespace glint::detail {
[[gnu::noinline]] std::uint64_t stacks_test_loop(std::uint64_t x) {
    asm volatile("" : "+r"(x));
    return glint_stacks_test::caller_fn(x) + 4;
}
}  // namespace glint::detail

using namespace glint_stacks_test;

namespace {

std::uint64_t at(std::uint64_t (*f)(std::uint64_t), std::uint64_t offset) {
    return reinterpret_cast<std::uint64_t>(f) + offset;
}

std::vector<std::string> names(const Profile& p) {
    std::vector<std::string> out;
    for (const auto& f : p.functions()) out.push_back(f.name.function);
    return out;
}

}  // namespace

TEST_CASE("stacks: cut at the pass's entry, callers named, the sample complete") {
    glint::os::Symbolizer symbols;
    StackBuilder builder(symbols, entry_returns());
    Profile p;
    glint::os::SampleRecord r;
    // A user-mode sample in leaf_fn; return addresses into caller_fn, then the return address of
    // the pass's call into the case, then beneath it.
    r.user_stack = {at(&leaf_fn, 1), at(&caller_fn, 2), entry_returns()[0], at(&outside_fn, 3)};
    builder.add(r, p);
    REQUIRE(p.samples() == 1);
    CHECK(p.complete() == 1);
    const auto folded = p.folded("");
    REQUIRE(folded.size() == 1);
    CHECK(folded[0].first ==
          "glint_stacks_test::caller_fn(unsigned long);glint_stacks_test::leaf_fn(unsigned long)");
}

TEST_CASE("stacks: glint's loop wrapper (glint::detail) is left out above the case's code") {
    glint::os::Symbolizer symbols;
    StackBuilder builder(symbols, entry_returns());
    Profile p;
    glint::os::SampleRecord r;
    r.user_stack = {at(&leaf_fn, 1), at(&caller_fn, 2), at(&glint::detail::stacks_test_loop, 3),
                    entry_returns()[0]};
    builder.add(r, p);
    // A sample in the loop itself keeps its one frame: the loop's own cost.
    r.user_stack = {at(&glint::detail::stacks_test_loop, 1), entry_returns()[0]};
    builder.add(r, p);
    std::set<std::string> stacks;
    for (const auto& [stack, count] : p.folded("")) stacks.insert(stack);
    CHECK(stacks == std::set<std::string>{"glint_stacks_test::caller_fn(unsigned long);"
                                          "glint_stacks_test::leaf_fn(unsigned long)",
                                          "glint::detail::stacks_test_loop(unsigned long)"});
}

TEST_CASE("stacks: a stack that never reaches the entry is kept, marked incomplete") {
    glint::os::Symbolizer symbols;
    StackBuilder builder(symbols, entry_returns());
    Profile p;
    glint::os::SampleRecord r;
    r.user_stack = {at(&leaf_fn, 1), at(&outside_fn, 2)};
    builder.add(r, p);
    CHECK(p.complete() == 0);
    CHECK(p.folded("c")[0].first ==
          "c;[incomplete stack];glint_stacks_test::outside_fn(unsigned long);"
          "glint_stacks_test::leaf_fn(unsigned long)");
}

TEST_CASE("stacks: a return address at a function's first byte names the function before it") {
    glint::os::Symbolizer symbols;
    StackBuilder builder(symbols, entry_returns());
    const auto& s = builder.resolve(at(&caller_fn, 0));
    REQUIRE_FALSE(s.frames.empty());
    CHECK(s.frames.back().function == "glint_stacks_test::caller_fn(unsigned long)");
    Profile p;
    glint::os::SampleRecord r;
    r.user_stack = {at(&leaf_fn, 0), at(&caller_fn, 0)};  // caller_fn - 1 is not caller_fn
    builder.add(r, p);
    CHECK(names(p).size() == 2);
    CHECK(names(p)[0] == "glint_stacks_test::leaf_fn(unsigned long)");
    CHECK(names(p)[1] != "glint_stacks_test::caller_fn(unsigned long)");
}

TEST_CASE("stacks: kernel samples, unnamed code and addresses in no module") {
    glint::os::Symbolizer symbols;
    StackBuilder builder(symbols, entry_returns());
    Profile p;
    glint::os::SampleRecord kernel;
    kernel.in_kernel = true;
    kernel.user_stack = {at(&leaf_fn, 3)};  // where user mode entered the kernel
    builder.add(kernel, p);
    glint::os::SampleRecord data;  // an address in the file's data: a module, no function
    data.user_stack = {reinterpret_cast<std::uint64_t>(&kData[0])};
    builder.add(data, p);
    glint::os::SampleRecord nowhere;
    nowhere.user_stack = {0x10};
    builder.add(nowhere, p);
    glint::os::SampleRecord empty;  // no user part at all
    builder.add(empty, p);
    CHECK(p.samples() == 4);
    const auto folded = p.folded("");
    std::vector<std::string> stacks;
    for (const auto& [s, n] : folded) stacks.push_back(s);
    CHECK(std::find(stacks.begin(), stacks.end(),
                    "[incomplete stack];glint_stacks_test::leaf_fn(unsigned long);[kernel]") !=
          stacks.end());
    CHECK(std::find(stacks.begin(), stacks.end(), "[incomplete stack];[unknown]") != stacks.end());
    bool module_offset = false;
    for (const auto& s : stacks)
        module_offset |= s.rfind("[incomplete stack];glint_unit_tests+0x", 0) == 0;
    CHECK(module_offset);
}

TEST_CASE("module basename: the last path component") {
    CHECK(module_basename("/usr/lib/libc.so.6") == "libc.so.6");
    CHECK(module_basename("prog") == "prog");
    CHECK(module_basename("") == "");
}

TEST_CASE("stacks: the pass's entry returns are the return sites of its two calls into the case") {
    const auto returns = entry_returns();
    REQUIRE(returns.size() == 2);
    glint::os::Symbolizer symbols;
    const auto batch = symbols.lookup(returns[0] - 1);
    const auto call = symbols.lookup(returns[1] - 1);
    REQUIRE_FALSE(batch.frames.empty());
    REQUIRE_FALSE(call.frames.empty());
    CHECK(batch.frames.back().function.find("sampled_batch") != std::string::npos);
    CHECK(call.frames.back().function.find("sampled_call") != std::string::npos);
    // Exact: another address in the same entry function does not cut.
    StackBuilder builder(symbols, returns);
    Profile p;
    glint::os::SampleRecord r;
    r.user_stack = {at(&leaf_fn, 1), returns[0] + 1};
    builder.add(r, p);
    CHECK(p.complete() == 0);
}

TEST_CASE("stacks: samples of glint's pass and toggles, and of after(), are dropped and counted") {
    glint::os::Symbolizer symbols;
    const PassCode code = pass_code();
    REQUIRE(code.pass.begin < code.pass.end);
    REQUIRE(code.toggle.begin < code.toggle.end);
    REQUIRE(code.after.size() == 1);
    StackBuilder builder(symbols, code);
    Profile p;
    glint::os::SampleRecord r;
    // Innermost in the pass's own code (between a toggle and the call into the case).
    r.user_stack = {code.pass.begin + 1, at(&outside_fn, 2)};
    CHECK(builder.add(r, p) == SampleOwner::glint);
    // In the system call's libc wrapper (no frame of its own), a toggle's code next.
    r.user_stack = {at(&leaf_fn, 1), code.toggle.begin + 1, code.pass.begin + 1};
    CHECK(builder.add(r, p) == SampleOwner::glint);
    r.in_kernel = true;  // the same, taken in the kernel
    CHECK(builder.add(r, p) == SampleOwner::glint);
    r.in_kernel = false;
    // In after(), in a grouped window.
    r.user_stack = {at(&leaf_fn, 1), at(&caller_fn, 2), code.after[0], code.pass.begin + 1};
    CHECK(builder.add(r, p) == SampleOwner::after);
    CHECK(p.samples() == 0);
    CHECK(builder.dropped_glint() == 3);
    CHECK(builder.dropped_after() == 1);
    // The case's: its entry reached; or no frame pointers, the pass's code second (kept,
    // incomplete).
    r.user_stack = {at(&leaf_fn, 1), code.entries[1], code.pass.begin + 1, code.toggle.begin + 1};
    CHECK(builder.add(r, p) == SampleOwner::the_case);
    r.user_stack = {at(&leaf_fn, 1), code.pass.begin + 1, at(&outside_fn, 2)};
    CHECK(builder.add(r, p) == SampleOwner::the_case);
    CHECK(p.samples() == 2);
    CHECK(p.complete() == 1);
    // Neither stack shows the pass's frames, nor what lies beneath them.
    for (const auto& entry : p.folded("")) {
        const std::string& stack = entry.first;  // not a structured binding: CAPTURE's lambda
        CAPTURE(stack);
        CHECK(stack.find("glint::engine::") == std::string::npos);
        CHECK(stack.find("outside_fn") == std::string::npos);
    }
    CHECK(builder.dropped_glint() == 3);
}
