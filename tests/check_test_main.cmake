# tests/check_test_main.cmake: proves the guards of support/test_main.cpp in one test binary.
#   cmake -DBINARY=<doctest binary> [-DEMULATOR=<what runs it: Wine>] -P check_test_main.cmake
# A run whose filter matches no test case must fail (GLINT-EMPTY-RUN); a run whose only test
# case skipped must exit 77 (ctest's SKIP_RETURN_CODE) and say why; a failed check before a
# skip must fail; a passing case, alone or beside a skipped one, must pass.
if(NOT BINARY)
  message(FATAL_ERROR "usage: cmake -DBINARY=<test binary> -P check_test_main.cmake")
endif()
separate_arguments(_emulator UNIX_COMMAND "${EMULATOR}")
set(_self "glint test main self-test: ")
set(_failures "")

function(expect what want_rc want_text)
  execute_process(COMMAND ${_emulator} "${BINARY}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  set(_bad "")
  if(NOT rc STREQUAL want_rc)
    set(_bad "exit ${rc}, expected ${want_rc}")
  endif()
  if(want_text)
    string(FIND "${out}${err}" "${want_text}" at)
    if(at EQUAL -1)
      set(_bad "${_bad} no '${want_text}' in the output")
    endif()
  endif()
  if(_bad)
    message("FAIL ${what}: ${_bad}\n  ${BINARY} ${ARGN}\n${out}${err}")
    set(_failures "${_failures};${what}" PARENT_SCOPE)
  else()
    message("ok   ${what}")
  endif()
endfunction()

expect("a filter matching no test case fails" 1 "GLINT-EMPTY-RUN:"
       "--test-case=glint-test-main-no-such-test-case")
expect("a skipped case exits 77 and says why" 77 "GLINT-SKIP: ${_self}a skipped case: self-test"
       --no-skip "--test-case=${_self}a skipped case")
expect("a failed check before a skip fails" 1 "" --no-skip "--test-case=${_self}a failed check then a skip")
expect("a passing case passes" 0 "" --no-skip "--test-case=${_self}a passing case")
expect("a passing case beside a skipped one passes" 0 "1 of 2 test case(s) skipped" --no-skip
       "--test-case=${_self}a passing case,${_self}a skipped case")

if(_failures)
  message(FATAL_ERROR "the test main's guards are broken:${_failures}")
endif()
