# tests/hygiene/tests.cmake (included by tests/CMakeLists.txt): source checks of the suite itself.
# No test writes a host path under /dev, /proc or /sys (host_paths.sh), and the check finds what
# it names (host_paths_selftest.sh plants each kind of write).
find_program(GLINT_BASH bash)
if(GLINT_BASH)
  add_test(NAME "hygiene/no test writes a host path under /dev, /proc or /sys"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/host_paths.sh ${PROJECT_SOURCE_DIR})
  add_test(NAME "hygiene/the host-path check finds each planted write"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/host_paths_selftest.sh ${CMAKE_CURRENT_LIST_DIR}/host_paths.sh)
endif()
