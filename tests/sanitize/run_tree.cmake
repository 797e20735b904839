# tests/sanitize/run_tree.cmake: configures a build tree of its own with sanitizers, builds only
# the targets asked for, and runs the chosen tests in it (cmake -P, from a ctest entry).
#   -DSOURCE=<glint source> -DBINARY=<tree> -DCXX=<compiler> -DOPTIONS=<-D...;...>
#   -DTARGETS=<target;...> -DTEST_ARGS=<ctest arguments;...> -DJOBS=<n>
foreach(v SOURCE BINARY CXX TARGETS JOBS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_tree.cmake: -D${v}= is missing")
  endif()
endforeach()
string(REPLACE "|" ";" OPTIONS "${OPTIONS}")
string(REPLACE "|" ";" TARGETS "${TARGETS}")
string(REPLACE "|" ";" TEST_ARGS "${TEST_ARGS}")

set(launcher)
find_program(CCACHE ccache)
if(CCACHE)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${CCACHE})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -DCMAKE_BUILD_TYPE=Release
                        -DCMAKE_CXX_COMPILER=${CXX} -DGLINT_BUILD_BENCH=OFF ${launcher} ${OPTIONS}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "configuring ${BINARY} failed")
endif()
string(TIMESTAMP start "%s")
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY} -j${JOBS} --target ${TARGETS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(TIMESTAMP built "%s")
math(EXPR build_s "${built} - ${start}")
message(STATUS "built ${TARGETS} in ${build_s} s")
if(rc)
  message(FATAL_ERROR "building ${TARGETS} in ${BINARY} failed:\n${out}")
endif()
if(TEST_ARGS)
  execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir ${BINARY} --output-on-failure -j${JOBS} ${TEST_ARGS}
                  RESULT_VARIABLE rc)
  string(TIMESTAMP ran "%s")
  math(EXPR run_s "${ran} - ${built}")
  message(STATUS "ran the tests in ${run_s} s")
  if(rc)
    message(FATAL_ERROR "tests failed in ${BINARY} (reports above)")
  endif()
endif()
