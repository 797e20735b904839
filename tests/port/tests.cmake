# tests/port/tests.cmake (included by tests/CMakeLists.txt): port/generic-os, the honest build
# for an OS glint has no back end for. It configures a second build tree of this source with
# GLINT_OS=other GLINT_ARCH=generic (no benchmarks), builds it and runs its ctest there
# (tests/port/generic_os.cmake): the library and every untagged test must build, and the tests
# must pass, the timing engine measuring and every tier unavailable with its reason. The tree is
# kept (build/port-generic-os), so a rerun only rebuilds what changed. Not registered inside that
# tree itself, nor when cross-compiling.
if(NOT GLINT_OS STREQUAL "other" AND NOT CMAKE_CROSSCOMPILING)
  cmake_host_system_information(RESULT _port_jobs QUERY NUMBER_OF_LOGICAL_CORES)
  add_test(NAME port/generic-os
    COMMAND ${CMAKE_COMMAND}
            -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
            -DBINARY_DIR=${PROJECT_BINARY_DIR}/port-generic-os
            -DBUILD_TYPE=${CMAKE_BUILD_TYPE}
            -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
            "-DLAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}"
            -DCTEST=${CMAKE_CTEST_COMMAND}
            -DJOBS=${_port_jobs}
            "-DQUIET_MACHINE_TESTS=${GLINT_QUIET_MACHINE_TESTS}"
            -P ${CMAKE_CURRENT_LIST_DIR}/generic_os.cmake)
  # A cold build of the library and the tests takes minutes on two cores.
  set_tests_properties(port/generic-os PROPERTIES TIMEOUT 1800 LABELS "port")
endif()
