# tests/public_users/tests.cmake (included by tests/CMakeLists.txt): bench/ and examples/ use
# glint only through its public headers (engine/include/glint), never its internals — not even
# the <glint/detail/...> headers the build lets them reach (public headers include those; the
# build itself already refuses "engine/...", "os/..." and the like: cmake/layers.cmake).
# public_users/self_test: that check fails on every kind of violation.
set(_public ${PROJECT_SOURCE_DIR}/engine/include)
add_test(NAME public_users/includes
  COMMAND ${CMAKE_COMMAND} -DPUBLIC_INCLUDE=${_public}
          "-DPATHS=${PROJECT_SOURCE_DIR}/bench|${PROJECT_SOURCE_DIR}/examples"
          -P ${CMAKE_CURRENT_LIST_DIR}/check_includes.cmake)
add_test(NAME public_users/self_test
  COMMAND ${CMAKE_COMMAND} -DPUBLIC_INCLUDE=${_public}
          -P ${CMAKE_CURRENT_LIST_DIR}/self_test.cmake)
