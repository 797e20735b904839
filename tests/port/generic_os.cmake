# tests/port/generic_os.cmake: the port/generic-os test (cmake -P; tests/port/tests.cmake).
# Configures BINARY_DIR from SOURCE_DIR with the generic OS and ISA back ends and no benchmarks,
# builds it with JOBS jobs, and runs its ctest (without the package, rig and port entries).
# Fails on a configure, build or test failure, and when the tree has no unit or e2e test.
foreach(_var SOURCE_DIR BINARY_DIR BUILD_TYPE CXX_COMPILER CTEST JOBS QUIET_MACHINE_TESTS)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "port/generic-os: ${_var} is not set")
  endif()
endforeach()

set(_configure -S ${SOURCE_DIR} -B ${BINARY_DIR} -DGLINT_OS=other -DGLINT_ARCH=generic
    -DGLINT_BUILD_BENCH=OFF -DGLINT_BUILD_TESTS=ON -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
if(LAUNCHER)
  list(APPEND _configure -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()

function(_step what)
  string(TIMESTAMP _start "%s")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  string(TIMESTAMP _end "%s")
  math(EXPR _seconds "${_end} - ${_start}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "port/generic-os: ${what} failed (${_rc}):\n${_out}")
  endif()
  message("port/generic-os: ${what}: ${_seconds} s")
  set(_out "${_out}" PARENT_SCOPE)
endfunction()

_step("configure" ${CMAKE_COMMAND} ${_configure})
_step("build" ${CMAKE_COMMAND} --build ${BINARY_DIR} --parallel ${JOBS})
_step("list" ${CTEST} --test-dir ${BINARY_DIR} -N)
foreach(_binary unit e2e)
  if(NOT _out MATCHES "Test +#[0-9]+: ${_binary}/")
    message(FATAL_ERROR "port/generic-os: the generic build registered no ${_binary}/ test")
  endif()
endforeach()
# The tests' own output only on failure; ctest's summary always. Left out besides the builds:
# the verdicts that need a quiet machine (QUIET_MACHINE_TESTS): this tree runs beside the rest of
# CI; the main tree keeps them.
execute_process(COMMAND ${CTEST} --test-dir ${BINARY_DIR} -E "^(package|rig|port)/|${QUIET_MACHINE_TESTS}"
                        --no-tests=error --output-on-failure -j ${JOBS}
                RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "port/generic-os: the generic build's tests failed (above)")
endif()
