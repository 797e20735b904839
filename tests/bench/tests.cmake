# tests/bench/tests.cmake (included by tests/CMakeLists.txt): bench/aa.sh, the A/A script behind
# README's false-alarm rate, counts a flagged row and fails beyond 1 in 20 (tests/bench/aa_check.sh,
# on the A/B fixture; the rate itself is measured by running bench/aa.sh, not in tests).
find_program(GLINT_BASH bash)
if(GLINT_BASH AND TARGET glint_fixture_ab AND TARGET glint-compare)
  add_test(NAME bench/aa.sh
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/aa_check.sh ${PROJECT_SOURCE_DIR}/bench/aa.sh
            $<TARGET_FILE:glint_fixture_ab> $<TARGET_FILE:glint-compare> ${PROJECT_BINARY_DIR}/aa-check)
  set_tests_properties(bench/aa.sh PROPERTIES TIMEOUT 300)
endif()
