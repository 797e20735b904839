# tests/port/port_tree.cmake: a port/ test (cmake -P; tests/port/tests.cmake). Configures
# BINARY_DIR from SOURCE_DIR with CONFIGURE (the back ends, or a toolchain) and no benchmarks,
# builds it with JOBS jobs, and runs its ctest (without the package, rig and port entries).
# Fails on a configure, build or test failure, and when the tree registers no test of a kind
# REQUIRED names (e.g. "unit;e2e"). NAME is the entry's name, for its messages. WINESERVER
# (optional): a tree run under Wine keeps one wineserver for its prefix from build to the end of
# its tests (wineserver -p), so no program starts as an idle server exits (docs/windows.md).
foreach(_var NAME SOURCE_DIR BINARY_DIR BUILD_TYPE CONFIGURE REQUIRED CTEST JOBS QUIET_MACHINE_TESTS)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "port: ${_var} is not set")
  endif()
endforeach()

# CONFIGURE and REQUIRED come as space-separated words (a ctest command line keeps no lists).
separate_arguments(CONFIGURE UNIX_COMMAND "${CONFIGURE}")
separate_arguments(REQUIRED UNIX_COMMAND "${REQUIRED}")
set(_configure -S ${SOURCE_DIR} -B ${BINARY_DIR} ${CONFIGURE} -DGLINT_BUILD_BENCH=OFF
    -DGLINT_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=${BUILD_TYPE})
if(LAUNCHER)
  list(APPEND _configure -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()

function(_step what)
  string(TIMESTAMP _start "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  string(TIMESTAMP _end "%s")
  math(EXPR _seconds "${_end} - ${_start}")
  if(NOT _rc EQUAL 0)
    _stop_wineserver()
    message(FATAL_ERROR "${NAME}: ${what} failed (${_rc}):\n${_out}")
  endif()
  message("${NAME}: ${what}: ${_seconds} s")
  set(_out "${_out}" PARENT_SCOPE)
endfunction()

if(WINESERVER)
  set(_wineserver ${CMAKE_COMMAND} -E env WINEPREFIX=${BINARY_DIR}/wineprefix ${WINESERVER})
  file(MAKE_DIRECTORY ${BINARY_DIR}/wineprefix)
  # Stays 60 s past its last program (it never lingers long after a killed run), stopped at the end.
  # Its output to a file: the server outlives the command, and would hold a pipe open.
  execute_process(COMMAND ${_wineserver} -p60 OUTPUT_FILE ${BINARY_DIR}/wineserver.log
                  ERROR_FILE ${BINARY_DIR}/wineserver.log)
endif()
function(_stop_wineserver)
  if(WINESERVER)
    execute_process(COMMAND ${_wineserver} -k)
  endif()
endfunction()

_step("configure" ${CMAKE_COMMAND} ${_configure})
_step("build" ${CMAKE_COMMAND} --build ${BINARY_DIR} --parallel ${JOBS})
_step("list" ${CTEST} --test-dir ${BINARY_DIR} -N)
foreach(_kind IN LISTS REQUIRED)
  if(NOT _out MATCHES "Test +#[0-9]+: ${_kind}/")
    message(FATAL_ERROR "${NAME}: the tree registered no ${_kind}/ test")
  endif()
endforeach()
# The tests' own output only on failure; ctest's summary always. Left out besides the builds:
# the verdicts that need a quiet machine (QUIET_MACHINE_TESTS): this tree runs beside the rest of
# CI; the main tree keeps them.
string(TIMESTAMP _start "%s")
execute_process(COMMAND ${CTEST} --test-dir ${BINARY_DIR} -E "^(package|rig|port)/|${QUIET_MACHINE_TESTS}"
                        --no-tests=error --output-on-failure -j ${JOBS}
                RESULT_VARIABLE _rc)
_stop_wineserver()
string(TIMESTAMP _end "%s")
math(EXPR _seconds "${_end} - ${_start}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${NAME}: the tree's tests failed (above)")
endif()
message("${NAME}: tests: ${_seconds} s")
