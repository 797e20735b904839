# cmake/sanitize.cmake: build trees for the sanitizer and fuzzing checks (tests/sanitize,
# tests/fuzz configure them; a normal build sets neither option).
#
#   GLINT_SANITIZE=address,undefined | thread
#       every target of the tree is compiled and linked with -fsanitize=<list>; a report stops
#       the program (-fno-sanitize-recover=all), so a test that triggers one fails.
#   GLINT_FUZZ=ON
#       the tree also builds the libFuzzer targets of tests/fuzz (clang only): every target is
#       compiled with -fsanitize=fuzzer-no-link (coverage for libFuzzer), the fuzzers are linked
#       with -fsanitize=fuzzer. Used together with GLINT_SANITIZE=address,undefined, so one
#       tree serves both the sanitized test suite and the fuzzers.
set(GLINT_SANITIZE "" CACHE STRING "Sanitizers for every target of this tree (address,undefined | thread)")
option(GLINT_FUZZ "Build the libFuzzer targets of tests/fuzz (clang)" OFF)
if(GLINT_SANITIZE)
  add_compile_options(-fsanitize=${GLINT_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${GLINT_SANITIZE})
endif()
if(GLINT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GLINT_FUZZ needs clang++ (libFuzzer): configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
