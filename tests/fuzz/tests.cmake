# tests/fuzz: libFuzzer targets, built in the sanitizer tree (tests/sanitize: clang,
# -fsanitize=address,undefined, GLINT_FUZZ) and each run for a bounded time from the corpus
# kept in tests/fuzz/corpus/<target>:
#   options     the flag parser (engine/cli)          selector   raw:/pfm: selectors (catalog)
#   baseline    the --bench-baseline reader (JSON)    mmap_page  the perf mmap-page reader
#   journal     the --recover-journal / stale-journal reader
#   isolation_wire  the parent's reader of an --isolate child's lines
#   sanitize    the output sanitisers (engine/model/sanitize): the invariants of each kind
# fuzz/<target> runs one for 30 s (-max_total_time=30). Inputs it finds go to the tree
# (build/sanitize/fuzz-corpus/<target>), never into the sources; a crash leaves its input in
# build/sanitize (crash-*) and fails the entry with the sanitizer's report. Promote an input
# worth keeping by copying it into tests/fuzz/corpus/<target>.
set(_fuzz_targets options selector baseline mmap_page journal isolation_wire sanitize)
if(GLINT_FUZZ)
  add_custom_target(glint_fuzz_targets)
  foreach(_t IN LISTS _fuzz_targets)
    add_executable(glint_fuzz_${_t} ${CMAKE_CURRENT_LIST_DIR}/${_t}_fuzz.cpp)
    target_include_directories(glint_fuzz_${_t} PRIVATE ${PROJECT_SOURCE_DIR})
    target_link_libraries(glint_fuzz_${_t} PRIVATE glint glint_fmt)
    target_link_options(glint_fuzz_${_t} PRIVATE -fsanitize=fuzzer)
    add_dependencies(glint_fuzz_targets glint_fuzz_${_t})
  endforeach()
else()
  find_program(GLINT_CLANGXX NAMES clang++ clang++-14)
endif()
if(NOT GLINT_FUZZ AND NOT GLINT_SANITIZE AND GLINT_OS STREQUAL "linux" AND GLINT_CLANGXX)
  set(_tree ${PROJECT_BINARY_DIR}/sanitize)
  foreach(_t IN LISTS _fuzz_targets)
    add_test(NAME fuzz/${_t}
             COMMAND sh -c "mkdir -p fuzz-corpus/${_t} && exec tests/glint_fuzz_${_t} -max_total_time=30 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 fuzz-corpus/${_t} '${CMAKE_CURRENT_LIST_DIR}/corpus/${_t}'"
             WORKING_DIRECTORY ${_tree})
    set_tests_properties(fuzz/${_t} PROPERTIES FIXTURES_REQUIRED glint_sanitize_tree TIMEOUT 300
                                               ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
  endforeach()
endif()
