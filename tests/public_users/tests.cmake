# tests/public_users/tests.cmake (included by tests/CMakeLists.txt): bench/ and examples/ use
# glint only through its public headers (engine/include/glint, outside detail/).
#  - public_users/includes: no include of anything else of glint's (and public_users/self_test:
#    that check fails on every kind of violation);
#  - public_users/compiles/bench/NAME: each bench source compiles with the public include
#    directory alone (examples/ joins once <glint/hot.hpp> reaches its internals through
#    <glint/detail/...>).
set(_public ${PROJECT_SOURCE_DIR}/engine/include)
add_test(NAME public_users/includes
  COMMAND ${CMAKE_COMMAND} -DPUBLIC_INCLUDE=${_public}
          "-DPATHS=${PROJECT_SOURCE_DIR}/bench|${PROJECT_SOURCE_DIR}/examples"
          -P ${CMAKE_CURRENT_LIST_DIR}/check_includes.cmake)
add_test(NAME public_users/self_test
  COMMAND ${CMAKE_COMMAND} -DPUBLIC_INCLUDE=${_public}
          -P ${CMAKE_CURRENT_LIST_DIR}/self_test.cmake)

file(GLOB _bench_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/bench/*.cpp)
foreach(_source IN LISTS _bench_sources)
  get_filename_component(_name ${_source} NAME_WE)
  set(_includes ${_public})
  if(_name STREQUAL "vs_google_benchmark")
    if(NOT TARGET benchmark::benchmark)
      continue()  # built only with Google Benchmark (bench/CMakeLists.txt)
    endif()
    string(APPEND _includes
      "|$<JOIN:$<TARGET_PROPERTY:benchmark::benchmark,INTERFACE_INCLUDE_DIRECTORIES>,|>")
  endif()
  add_test(NAME public_users/compiles/bench/${_name}
    COMMAND ${CMAKE_COMMAND} -DCXX=${CMAKE_CXX_COMPILER} -DSOURCE=${_source}
            "-DINCLUDES=${_includes}" -P ${CMAKE_CURRENT_LIST_DIR}/compile_alone.cmake)
endforeach()
