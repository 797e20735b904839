# The Google Benchmark drop-in (<benchmark/benchmark.h> served by glint, glint::benchmark).
#  - Six unchanged test files of Google Benchmark 1.7.1 (third_party/, README.md there) and
#    api_dropin.cpp are built against glint::benchmark; each lists the same instances as the same
#    file built against Debian's libbenchmark-dev (1.7.1), and every instance runs under glint.
#  - Google Benchmark's tools/compare.py (Debian's libbenchmark-tools) reads the drop-in's
#    --benchmark_out document, and glint-compare judges a Google Benchmark baseline.
find_package(benchmark CONFIG QUIET)  # Debian's libbenchmark-dev, for the side-by-side checks
set(_gbench_dir ${CMAKE_CURRENT_LIST_DIR})
set(_gbench_files third_party/basic_test.cc third_party/map_test.cc third_party/multiple_ranges_test.cc
                  third_party/fixture_test.cc third_party/templated_fixture_test.cc
                  third_party/args_product_test.cc api_dropin.cpp)
foreach(_file IN LISTS _gbench_files)
  get_filename_component(_stem "${_file}" NAME_WE)
  add_executable(gbench_glint_${_stem} ${_gbench_dir}/${_file})
  target_link_libraries(gbench_glint_${_stem} PRIVATE glint::benchmark)
  target_compile_definitions(gbench_glint_${_stem} PRIVATE GLINT_DROPIN_TEST)
  if(_file MATCHES "^third_party/")
    # Test data kept as written upstream: its own warnings are not this project's.
    target_compile_options(gbench_glint_${_stem} PRIVATE -w)
  endif()
  add_test(NAME "gbench/${_stem}: every instance runs under glint (--benchmark_dry_run)"
           COMMAND gbench_glint_${_stem} --benchmark_dry_run)
  if(benchmark_FOUND)
    add_executable(gbench_gb_${_stem} ${_gbench_dir}/${_file})
    target_link_libraries(gbench_gb_${_stem} PRIVATE benchmark::benchmark)
    target_compile_options(gbench_gb_${_stem} PRIVATE -w)
    add_test(NAME "gbench/${_stem}: instances equal Google Benchmark's --benchmark_list_tests"
             COMMAND bash ${_gbench_dir}/list_equal.sh $<TARGET_FILE:gbench_glint_${_stem}>
                     $<TARGET_FILE:gbench_gb_${_stem}>)
  endif()
endforeach()
if(benchmark_FOUND)
  add_test(NAME "gbench/filter: --benchmark_filter selects as Google Benchmark's regex does"
           COMMAND bash ${_gbench_dir}/filters.sh $<TARGET_FILE:gbench_glint_api_dropin>
                   $<TARGET_FILE:gbench_gb_api_dropin>)
  add_test(NAME "gbench/json: compare.py reads the drop-in's JSON, glint-compare a Google Benchmark baseline"
           COMMAND bash ${_gbench_dir}/json_both_ways.sh $<TARGET_FILE:gbench_glint_map_test>
                   $<TARGET_FILE:gbench_gb_map_test> $<TARGET_FILE:glint-compare>)
  set_tests_properties("gbench/json: compare.py reads the drop-in's JSON, glint-compare a Google Benchmark baseline"
                       PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
if(benchmark_FOUND)
  set(_gb_api $<TARGET_FILE:gbench_gb_api_dropin>)
else()
  set(_gb_api "")
endif()
add_test(NAME "gbench/complexity: Complexity() is fitted, BigO and RMS rows as Google Benchmark names them"
         COMMAND bash ${_gbench_dir}/complexity.sh $<TARGET_FILE:gbench_glint_api_dropin> ${_gb_api})
add_test(NAME "gbench/errors: SkipWithError is an error row, a bad flag value exits 2"
         COMMAND bash ${_gbench_dir}/errors.sh $<TARGET_FILE:gbench_glint_api_dropin>)
