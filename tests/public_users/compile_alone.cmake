# tests/public_users/compile_alone.cmake: compiles one user source (-fsyntax-only) with the
# public include directory and nothing of the source tree, so a use of glint's internals — even
# through a header that happens to reach them — does not compile.
# Usage: cmake -DCXX=<compiler> -DSOURCE=<file> -DINCLUDES="<dir>|<dir>..." -P this-file
if(NOT CXX OR NOT SOURCE OR NOT INCLUDES)
  message(FATAL_ERROR "compile_alone: pass -DCXX, -DSOURCE and -DINCLUDES")
endif()
string(REPLACE "|" ";" _dirs "${INCLUDES}")
set(_flags)
foreach(_d IN LISTS _dirs)
  if(_d)
    list(APPEND _flags "-I${_d}")
  endif()
endforeach()
execute_process(COMMAND "${CXX}" -std=c++20 -fsyntax-only ${_flags} "${SOURCE}"
                RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "${SOURCE} does not compile with only ${INCLUDES} on its include path "
                      "(it uses glint internals):\n${_out}${_err}")
endif()
message("${SOURCE} compiles with only ${INCLUDES}")
