// <benchmark/benchmark.h> served by glint: Google Benchmark's public API over glint's runner, so
// a suite written for Google Benchmark compiles unchanged and links glint::benchmark (or
// glint::benchmark_main for BENCHMARK_MAIN's main). Instances keep Google Benchmark's names and
// flags; each one runs under glint's protocol, environment checks, marks and gate. What differs
// and why: "Coming from Google Benchmark" in glint's documentation.
#pragma once

// What Google Benchmark's header brings in, which suites rely on without including it.
#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <glint/gbench/family.hpp>
#include <glint/gbench/state.hpp>

#define BENCHMARK_HAS_CXX11
#define BENCHMARK_OVERRIDE override
#define BENCHMARK_UNUSED __attribute__((unused))
#define BENCHMARK_ALWAYS_INLINE __attribute__((always_inline))
#define BENCHMARK_NOEXCEPT noexcept
#define BENCHMARK_EXPORT
#define BENCHMARK_DEPRECATED_MSG(msg) __attribute__((deprecated(msg)))
#define BENCHMARK_DISALLOW_COPY_AND_ASSIGN(TypeName) \
    TypeName(const TypeName&) = delete;              \
    TypeName& operator=(const TypeName&) = delete

#define BENCHMARK_PRIVATE_CONCAT2(a, b, c) a##b##c
#define BENCHMARK_PRIVATE_CONCAT(a, b, c) BENCHMARK_PRIVATE_CONCAT2(a, b, c)
#define BENCHMARK_PRIVATE_NAME(n) BENCHMARK_PRIVATE_CONCAT(benchmark_uniq_, __COUNTER__, n)
#define BENCHMARK_PRIVATE_DECLARE(n) \
    static ::benchmark::internal::Benchmark* BENCHMARK_PRIVATE_NAME(n) BENCHMARK_UNUSED

#define BENCHMARK(...)                                                                          \
    BENCHMARK_PRIVATE_DECLARE(_benchmark_) = (::benchmark::internal::RegisterBenchmarkInternal( \
        new ::benchmark::internal::FunctionBenchmark(#__VA_ARGS__, __VA_ARGS__)))
#define BENCHMARK_WITH_ARG(n, a) BENCHMARK(n)->Arg((a))
#define BENCHMARK_WITH_ARG2(n, a1, a2) BENCHMARK(n)->Args({(a1), (a2)})
#define BENCHMARK_WITH_UNIT(n, t) BENCHMARK(n)->Unit((t))
#define BENCHMARK_RANGE(n, lo, hi) BENCHMARK(n)->Range((lo), (hi))
#define BENCHMARK_RANGE2(n, l1, h1, l2, h2) BENCHMARK(n)->RangePair({{(l1), (h1)}, {(l2), (h2)}})

#define BENCHMARK_CAPTURE(func, test_case_name, ...)                                            \
    BENCHMARK_PRIVATE_DECLARE(_benchmark_) = (::benchmark::internal::RegisterBenchmarkInternal( \
        new ::benchmark::internal::LambdaBenchmark<void (*)(::benchmark::State&)>(              \
            #func "/" #test_case_name, [](::benchmark::State& st) { func(st, __VA_ARGS__); })))

#define BENCHMARK_TEMPLATE1(n, a)                                                     \
    BENCHMARK_PRIVATE_DECLARE(n) = (::benchmark::internal::RegisterBenchmarkInternal( \
        new ::benchmark::internal::FunctionBenchmark(#n "<" #a ">", n<a>)))
#define BENCHMARK_TEMPLATE2(n, a, b)                                                  \
    BENCHMARK_PRIVATE_DECLARE(n) = (::benchmark::internal::RegisterBenchmarkInternal( \
        new ::benchmark::internal::FunctionBenchmark(#n "<" #a "," #b ">", n<a, b>)))
#define BENCHMARK_TEMPLATE(n, ...)                                                    \
    BENCHMARK_PRIVATE_DECLARE(n) = (::benchmark::internal::RegisterBenchmarkInternal( \
        new ::benchmark::internal::FunctionBenchmark(#n "<" #__VA_ARGS__ ">", n<__VA_ARGS__>)))

// Fixtures: class BaseClass_Method_Benchmark derives from the fixture and defines the case
// (named through a macro, so a fixture named by a macro expands first).
#define BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method) BaseClass##_##Method##_Benchmark
#define BENCHMARK_PRIVATE_DECLARE_F_NAMED(BaseClass, Method, Base, Name)            \
    class BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method) : public Base {          \
      public:                                                                       \
        BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)() { this->SetName(Name); } \
                                                                                    \
      protected:                                                                    \
        void BenchmarkCase(::benchmark::State&) override;                           \
    };
#define BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method) \
    BENCHMARK_PRIVATE_DECLARE_F_NAMED(BaseClass, Method, BaseClass, #BaseClass "/" #Method)
#define BENCHMARK_TEMPLATE1_PRIVATE_DECLARE_F(BaseClass, Method, a)    \
    BENCHMARK_PRIVATE_DECLARE_F_NAMED(BaseClass, Method, BaseClass<a>, \
                                      #BaseClass "<" #a ">/" #Method)
#define BENCHMARK_TEMPLATE2_PRIVATE_DECLARE_F(BaseClass, Method, a, b)    \
    BENCHMARK_PRIVATE_DECLARE_F_NAMED(BaseClass, Method, BaseClass<a, b>, \
                                      #BaseClass "<" #a "," #b ">/" #Method)
#define BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, ...)             \
    BENCHMARK_PRIVATE_DECLARE_F_NAMED(BaseClass, Method, BaseClass<__VA_ARGS__>, \
                                      #BaseClass "<" #__VA_ARGS__ ">/" #Method)

#define BENCHMARK_DEFINE_F(BaseClass, Method)      \
    BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method) \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE1_DEFINE_F(BaseClass, Method, a)      \
    BENCHMARK_TEMPLATE1_PRIVATE_DECLARE_F(BaseClass, Method, a) \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE2_DEFINE_F(BaseClass, Method, a, b)      \
    BENCHMARK_TEMPLATE2_PRIVATE_DECLARE_F(BaseClass, Method, a, b) \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE_DEFINE_F(BaseClass, Method, ...)              \
    BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, __VA_ARGS__) \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase

#define BENCHMARK_PRIVATE_REGISTER_F(TestName) \
    BENCHMARK_PRIVATE_DECLARE(TestName) =      \
        (::benchmark::internal::RegisterBenchmarkInternal(new TestName()))
#define BENCHMARK_REGISTER_F(BaseClass, Method) \
    BENCHMARK_PRIVATE_REGISTER_F(BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method))

#define BENCHMARK_F(BaseClass, Method)             \
    BENCHMARK_PRIVATE_DECLARE_F(BaseClass, Method) \
    BENCHMARK_REGISTER_F(BaseClass, Method);       \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE1_F(BaseClass, Method, a)             \
    BENCHMARK_TEMPLATE1_PRIVATE_DECLARE_F(BaseClass, Method, a) \
    BENCHMARK_REGISTER_F(BaseClass, Method);                    \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE2_F(BaseClass, Method, a, b)             \
    BENCHMARK_TEMPLATE2_PRIVATE_DECLARE_F(BaseClass, Method, a, b) \
    BENCHMARK_REGISTER_F(BaseClass, Method);                       \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase
#define BENCHMARK_TEMPLATE_F(BaseClass, Method, ...)                     \
    BENCHMARK_TEMPLATE_PRIVATE_DECLARE_F(BaseClass, Method, __VA_ARGS__) \
    BENCHMARK_REGISTER_F(BaseClass, Method);                             \
    void BENCHMARK_PRIVATE_CONCAT_NAME(BaseClass, Method)::BenchmarkCase

// main() for a suite: Google Benchmark's, returning glint's exit status (1: a case failed).
#define BENCHMARK_MAIN()                                                    \
    int main(int argc, char** argv) {                                       \
        ::benchmark::Initialize(&argc, argv);                               \
        if (::benchmark::ReportUnrecognizedArguments(argc, argv)) return 1; \
        ::benchmark::RunSpecifiedBenchmarks();                              \
        ::benchmark::Shutdown();                                            \
        return ::benchmark::internal::GlintExitStatus();                    \
    }                                                                       \
    int main(int, char**)
