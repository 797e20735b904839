# tests/port/tests.cmake (included by tests/CMakeLists.txt): the port/ entries, each a second
# build tree of this source configured for another back end, built, and its ctest run there
# (tests/port/port_tree.cmake); the trees are kept (build/port-*), so a rerun only rebuilds what
# changed. Not registered inside a port tree itself, nor when cross-compiling.
#   port/generic-os  GLINT_OS=other GLINT_ARCH=generic (no benchmarks): the honest build for an
#                    OS glint has no back end for; every untagged test builds and passes, the
#                    timing engine measuring and every tier unavailable with its reason.
#   port/windows     cross-built for Windows x86-64 with mingw-w64 and run under Wine
#                    (docs/windows.md): the unit tests and tests/windows' end-to-end checks.
#                    x86-64 hosts only; it fails, naming the packages, when they are missing.
if(NOT GLINT_OS STREQUAL "linux" OR CMAKE_CROSSCOMPILING)
  return()
endif()
cmake_host_system_information(RESULT _port_jobs QUERY NUMBER_OF_LOGICAL_CORES)
set(_port_common -DSOURCE_DIR=${PROJECT_SOURCE_DIR} -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
    "-DLAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}" -DCTEST=${CMAKE_CTEST_COMMAND} -DJOBS=${_port_jobs}
    "-DQUIET_MACHINE_TESTS=${GLINT_QUIET_MACHINE_TESTS}")
add_test(NAME port/generic-os
  COMMAND ${CMAKE_COMMAND} -DNAME=port/generic-os ${_port_common}
          -DBINARY_DIR=${PROJECT_BINARY_DIR}/port-generic-os
          "-DCONFIGURE=-DGLINT_OS=other -DGLINT_ARCH=generic -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}"
          "-DREQUIRED=unit e2e"
          -P ${CMAKE_CURRENT_LIST_DIR}/port_tree.cmake)
# A cold build of the library and the tests takes minutes on two cores.
set_tests_properties(port/generic-os PROPERTIES TIMEOUT 1800 LABELS "port")

if(CMAKE_HOST_SYSTEM_PROCESSOR STREQUAL "x86_64")
  find_program(GLINT_MINGW_CXX x86_64-w64-mingw32-g++-posix)
  find_program(GLINT_WINE64 NAMES wine64 PATHS /usr/lib/wine)
  find_program(GLINT_WINESERVER NAMES wineserver64 wineserver PATHS /usr/lib/wine)
  if(GLINT_MINGW_CXX AND GLINT_WINE64)
    add_test(NAME port/windows
      COMMAND ${CMAKE_COMMAND} -DNAME=port/windows ${_port_common}
              -DBINARY_DIR=${PROJECT_BINARY_DIR}/port-windows
              "-DCONFIGURE=--toolchain ${PROJECT_SOURCE_DIR}/cmake/toolchains/mingw-w64-x86_64.cmake"
              "-DREQUIRED=unit windows" "-DWINESERVER=${GLINT_WINESERVER}"
              -P ${CMAKE_CURRENT_LIST_DIR}/port_tree.cmake)
  else()
    add_test(NAME port/windows COMMAND ${CMAKE_COMMAND} -E echo
             "port/windows: needs g++-mingw-w64-x86-64-posix and wine64 (third_party/setup-debian.sh)")
    set_tests_properties(port/windows PROPERTIES WILL_FAIL FALSE FAIL_REGULAR_EXPRESSION "needs")
  endif()
  set_tests_properties(port/windows PROPERTIES TIMEOUT 1800 LABELS "port;windows")
endif()
