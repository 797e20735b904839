# tests/real-pmu/tests.cmake (included by tests/CMakeLists.txt): check.sh is the script to run on
# a host with a hardware PMU (docs/rigs.md); here, on a VM without one, it must say so and exit 3
# before building anything (no_pmu_check.sh; skipped, exit 77, where a PMU exists).
find_program(GLINT_BASH bash)
if(GLINT_BASH AND GLINT_OS STREQUAL "linux")
  add_test(NAME "real-pmu/check.sh says 'no hardware PMU' and exits 3 on a host without one"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/no_pmu_check.sh ${CMAKE_CURRENT_LIST_DIR}/check.sh)
  set_tests_properties("real-pmu/check.sh says 'no hardware PMU' and exits 3 on a host without one"
                       PROPERTIES SKIP_RETURN_CODE 77)
endif()
