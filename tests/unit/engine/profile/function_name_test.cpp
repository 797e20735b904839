// Function names shortened by rule (engine/profile/function_name.hpp), over names as g++ 12's
// demangler spells them (nm -C): template arguments go first (innermost first), then parameter
// lists, then leading qualifiers; a cut is the last resort, and the function's name survives.
#include <doctest/doctest.h>

#include "engine/profile/function_name.hpp"

using glint::engine::profile::code_points;
using glint::engine::profile::shorten_function_name;

namespace {

const std::string kToUpper =
    "strlib::to_upper(std::__cxx11::basic_string<char, std::char_traits<char>, "
    "std::allocator<char> > const&)";
const std::string kRealloc =
    "void std::vector<int, std::allocator<int> "
    ">::_M_realloc_insert<int>(__gnu_cxx::__normal_iterator<int*, "
    "std::vector<int, std::allocator<int> > >, int&&)";
const std::string kRunBatch =
    "void glint::detail::run_batch<glint_bench_2()::{lambda()#1}>(void*, unsigned long)";
const std::string kLambdaCall = "g()::{lambda(int)#1}::operator()(int) const";
const std::string kWidgetLess =
    "(anonymous namespace)::Widget::operator<((anonymous namespace)::Widget const&) const";
const std::string kSpaceship =
    "decltype ((__char_traits_cmp_cat<std::char_traits<char> >)(0)) std::operator<=><char, "
    "std::char_traits<char>, "
    "std::allocator<char> >(std::__cxx11::basic_string<char, std::char_traits<char>, "
    "std::allocator<char> > const&, "
    "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)";
const std::string kEqual =
    "bool __gnu_cxx::operator==<char*, std::__cxx11::basic_string<char, std::char_traits<char>, "
    "std::allocator<char> > "
    ">(__gnu_cxx::__normal_iterator<char*, std::__cxx11::basic_string<char, "
    "std::char_traits<char>, "
    "std::allocator<char> > > const&, __gnu_cxx::__normal_iterator<char*, "
    "std::__cxx11::basic_string<char, "
    "std::char_traits<char>, std::allocator<char> > > const&)";
const std::string kNested =
    "int Outer<std::vector<int, std::allocator<int> >, std::map<int, "
    "std::__cxx11::basic_string<char, "
    "std::char_traits<char>, std::allocator<char> >, std::less<int>, std::allocator<std::pair<int "
    "const, "
    "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > > > > "
    ">::inner<std::function<void "
    "(int)> >(std::function<void (int)>)";

}  // namespace

TEST_CASE("function names: a name that fits is returned unchanged") {
    CHECK(shorten_function_name("work_three(unsigned long)", 64) == "work_three(unsigned long)");
    CHECK(shorten_function_name(kToUpper, kToUpper.size()) == kToUpper);
}

TEST_CASE("function names: template arguments go first, the innermost before the outer") {
    // Depth 2 elided is still 98 wide; depth 1 fits 64.
    CHECK(shorten_function_name(kToUpper, 64) ==
          "strlib::to_upper(std::__cxx11::basic_string<…> const&)");
    CHECK(shorten_function_name(kToUpper, 100) ==
          "strlib::to_upper(std::__cxx11::basic_string<char, std::char_traits<…>, "
          "std::allocator<…> > const&)");
    CHECK(shorten_function_name(kRealloc, 81) ==
          "void std::vector<…>::_M_realloc_insert<…>(__gnu_cxx::__normal_iterator<…>, int&&)");
    CHECK(shorten_function_name(kNested, 64) == "int Outer<…>::inner<…>(std::function<…>)");
}

TEST_CASE(
    "function names: then parameter lists, keeping (), operator() and (anonymous namespace)") {
    CHECK(shorten_function_name(kToUpper, 30) == "strlib::to_upper(…)");
    CHECK(shorten_function_name(kRealloc, 50) == "void std::vector<…>::_M_realloc_insert<…>(…)");
    CHECK(shorten_function_name(kRunBatch, 40) == "void glint::detail::run_batch<…>(…)");
    CHECK(shorten_function_name(kLambdaCall, 40) == "g()::{lambda(…)#1}::operator()(…) const");
    CHECK(shorten_function_name(kWidgetLess, 60) ==
          "(anonymous namespace)::Widget::operator<(…) const");
}

TEST_CASE("function names: then leading qualifiers and a return type, marked …::") {
    CHECK(shorten_function_name(kRealloc, 40) == "std::vector<…>::_M_realloc_insert<…>(…)");
    CHECK(shorten_function_name(kRealloc, 30) == "…::_M_realloc_insert<…>(…)");
    CHECK(shorten_function_name(kRunBatch, 30) == "glint::detail::run_batch<…>(…)");
    CHECK(shorten_function_name(kRunBatch, 25) == "…::run_batch<…>(…)");
    CHECK(shorten_function_name(kWidgetLess, 30) == "…::Widget::operator<(…) const");
    CHECK(shorten_function_name(kWidgetLess, 25) == "…::operator<(…) const");
    CHECK(shorten_function_name(kLambdaCall, 38) == "…::{lambda(…)#1}::operator()(…) const");
    CHECK(shorten_function_name(kLambdaCall, 26) == "…::operator()(…) const");
}

TEST_CASE("function names: operator names are not brackets") {
    CHECK(shorten_function_name(kSpaceship, 40) == "decltype (…) std::operator<=><…>(…)");
    CHECK(shorten_function_name(kSpaceship, 30) ==
          "std::operator<=><…>(…)");  // the return type dropped
    CHECK(shorten_function_name(kSpaceship, 20) == "…::operator<=><…>(…)");
    CHECK(shorten_function_name(kEqual, 60) == "bool __gnu_cxx::operator==<…>(…)");
    CHECK(shorten_function_name("ns::Big::operator()(long) const", 22) == "…::operator()(…) const");
}

TEST_CASE("function names: a cut only as the last resort, within the width") {
    const std::string long_name = "a_function_whose_own_name_is_longer_than_the_column(int)";
    CHECK(shorten_function_name(long_name, 20) == "a_function_whose_ow…");
    for (const std::string& name : {kToUpper, kRealloc, kRunBatch, kLambdaCall, kWidgetLess,
                                    kSpaceship, kEqual, kNested, long_name})
        for (std::size_t width : {1, 2, 5, 12, 24, 40, 64, 100}) {
            CAPTURE(name);
            CAPTURE(width);
            CHECK(code_points(shorten_function_name(name, width)) <= width);
        }
    CHECK(shorten_function_name(long_name, 0).empty());
}

TEST_CASE("function names: brackets that do not balance are only cut") {
    CHECK(shorten_function_name("broken<name(with, no end", 12) == "broken<name…");
}
