# tests/public_users/self_test.cmake: check_includes.cmake must fail on a file with every kind of
# non-public include, name each offending line, and let the allowed ones through (line 11: a
# header beside the file, fixtures/own_header.hpp, is the user's own).
# Usage: cmake -DPUBLIC_INCLUDE=<dir holding glint/> -P this-file
set(_here "${CMAKE_CURRENT_LIST_DIR}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -DPUBLIC_INCLUDE=${PUBLIC_INCLUDE}
          -DPATHS=${_here}/fixtures/violations.cpp.txt -P ${_here}/check_includes.cmake
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
set(_all "${_out}${_err}")
if(_result EQUAL 0)
  message(FATAL_ERROR "check_includes passed a file of violations:\n${_all}")
endif()
# line: what must be reported for it
foreach(_expected
    "violations.cpp.txt:5: #include \"engine/timing/clock.hpp\": a quoted include"
    "violations.cpp.txt:6: #include \"glint/bench.hpp\": a quoted include"
    "violations.cpp.txt:7: #include <engine/counting/read_path.hpp>: a layer's internals"
    "violations.cpp.txt:8: #include <arch/arch.hpp>: a layer's internals"
    "violations.cpp.txt:9: #include <glint/detail/batch.hpp>: glint's internals"
    "violations.cpp.txt:10: #include <glint/no_such_header.hpp>: not a public header"
    "violations.cpp.txt:12: #include \"no_such_own_header.hpp\": a quoted include"
    "7 include\\(s\\) of non-public headers in 1 file")
  if(NOT _all MATCHES "${_expected}")
    message(FATAL_ERROR "check_includes did not report '${_expected}':\n${_all}")
  endif()
endforeach()
foreach(_allowed ":1:" ":2:" ":3:" ":4:" ":11:")
  if(_all MATCHES "violations.cpp.txt${_allowed}")
    message(FATAL_ERROR "check_includes flagged an allowed include (line${_allowed}):\n${_all}")
  endif()
endforeach()
message("check_includes reports every kind of non-public include")
