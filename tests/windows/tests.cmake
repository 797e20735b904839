# tests/windows/tests.cmake (included by tests/CMakeLists.txt): the Windows build's end-to-end
# checks, registered in a tree cross-built for Windows (cmake/toolchains/mingw-w64-x86_64.cmake)
# whose programs run under Wine. Each check is one run of tests/windows/e2e.sh on the Linux
# host: the fixtures and glint-compare as .exe files, judged with jq. The unit tests run under
# Wine through doctest's discovery like any other tree's.
if(NOT GLINT_OS STREQUAL "windows" OR NOT CMAKE_CROSSCOMPILING_EMULATOR)
  return()
endif()
find_program(GLINT_BASH bash)
find_program(GLINT_JQ jq)
if(NOT GLINT_BASH OR NOT GLINT_JQ)
  message(WARNING "glint: the Windows end-to-end checks need bash and jq (apt-get install -y jq)")
  return()
endif()
list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " _wine)
foreach(_check bench json baseline alternate ctrl-c threads asm capabilities)
  add_test(NAME windows/e2e-${_check}
           COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/e2e.sh ${_check})
  set_tests_properties(windows/e2e-${_check} PROPERTIES
    LABELS windows TIMEOUT 300
    FAIL_REGULAR_EXPRESSION "FAILED:"
    ENVIRONMENT "GLINT_WINE=${_wine};GLINT_EXE_DIR=${CMAKE_CURRENT_BINARY_DIR};GLINT_COMPARE=$<TARGET_FILE:glint-compare>;GLINT_WORK=${CMAKE_CURRENT_BINARY_DIR}/windows-e2e/${_check}")
endforeach()
