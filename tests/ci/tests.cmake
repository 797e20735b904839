# tests/ci/tests.cmake (included by tests/CMakeLists.txt): the CI log's tail names a test that
# failed inside a nested tree (tests/ci/nested-failures.sh, called by tests/run-all.sh when
# ctest fails), checked on planted ctest records (tests/ci/nested_failures_check.sh).
find_program(GLINT_BASH bash)
if(GLINT_BASH)
  add_test(NAME "ci/nested-failures: a failure inside a nested tree is named with its output"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/nested_failures_check.sh ${CMAKE_CURRENT_LIST_DIR}/nested-failures.sh
            ${CMAKE_CURRENT_BINARY_DIR}/nested-failures-check)
endif()
