# tests/numa/tests.cmake (included by tests/CMakeLists.txt): the NUMA QEMU rig, an x86-64 guest
# with two NUMA nodes (tests/numa/rig.sh). Its programs are built here, statically, by the
# normal build (no second build of the library): the shared /init, the guest tests and the e2e
# noise fixture. Exit 77 is a skip only outside CI (tools not installable here); with CI set
# the rig fails instead, and it always fails when the guest's tests fail or print no result line.
if(GLINT_OS STREQUAL "linux" AND GLINT_ARCH STREQUAL "x86_64" AND CMAKE_HOST_SYSTEM_PROCESSOR STREQUAL "x86_64"
   AND NOT CMAKE_CROSSCOMPILING)
  find_program(GLINT_BASH bash)
  if(GLINT_BASH)
    add_executable(glint_numa_init ${CMAKE_CURRENT_LIST_DIR}/../rigs/guest_init.cpp)
    add_executable(glint_numa_fixture_noise ${CMAKE_CURRENT_LIST_DIR}/../e2e/fixtures/noise.cpp)
    target_link_libraries(glint_numa_fixture_noise PRIVATE glint::main)
    add_executable(glint_numa_guest_tests ${CMAKE_CURRENT_LIST_DIR}/numa_guest_test.cpp
      ${CMAKE_CURRENT_LIST_DIR}/../support/process.cpp)
    # The guest's tests see the whole tree (they test internals) and tests/ for support/.
    target_include_directories(glint_numa_guest_tests PRIVATE ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_LIST_DIR}/..)
    target_link_libraries(glint_numa_guest_tests PRIVATE glint glint_fmt doctest::doctest)
    foreach(_t glint_numa_init glint_numa_fixture_noise glint_numa_guest_tests)
      target_link_options(${_t} PRIVATE -static)
    endforeach()

    add_test(NAME rig/numa_qemu
      COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/rig.sh ${PROJECT_SOURCE_DIR}
              ${PROJECT_BINARY_DIR}/numa-rig $<TARGET_FILE:glint_numa_init>
              $<TARGET_FILE:glint_numa_guest_tests> $<TARGET_FILE:glint_numa_fixture_noise>)
    # First run: package installs and the kernel download; later runs reuse the cache.
    set_tests_properties(rig/numa_qemu PROPERTIES
      TIMEOUT 1800
      SKIP_RETURN_CODE 77
      LABELS "rig;numa"
      RUN_SERIAL TRUE)
  endif()
endif()
