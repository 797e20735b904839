# third_party/cross_headers.cmake (included by dependencies.cmake when cross-compiling for
# Windows): glint's header-only dependencies come from the build host's Debian packages, the same
# ones a native build uses. The host's /usr/include itself cannot be on the target's include
# path (its C library headers would shadow mingw-w64's), so each package's folder is linked into
# <build>/host-headers and only that folder is added. libpfm4 and libdw are Linux-only and not
# used; Google Benchmark is not looked for.
set(_glint_host_headers ${CMAKE_BINARY_DIR}/host-headers)
file(MAKE_DIRECTORY ${_glint_host_headers})
foreach(_pair "fmt;fmt/format.h;libfmt-dev" "nlohmann;nlohmann/json.hpp;nlohmann-json3-dev"
              "doctest;doctest/doctest.h;doctest-dev" "xbyak;xbyak/xbyak.h;libxbyak-dev")
  list(GET _pair 0 _dir)
  list(GET _pair 1 _probe)
  list(GET _pair 2 _package)
  find_path(_glint_host_${_dir} ${_probe} PATHS /usr/include NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(NOT _glint_host_${_dir})
    glint_missing("${_dir} (the build host's headers)" "${_package}")
  endif()
  if(NOT EXISTS ${_glint_host_headers}/${_dir})
    file(CREATE_LINK ${_glint_host_${_dir}}/${_dir} ${_glint_host_headers}/${_dir} SYMBOLIC)
  endif()
endforeach()

add_library(glint_fmt INTERFACE)
target_include_directories(glint_fmt SYSTEM INTERFACE ${_glint_host_headers})
target_compile_definitions(glint_fmt INTERFACE FMT_HEADER_ONLY=1)
foreach(_target glint_nlohmann glint_xbyak)
  add_library(${_target} INTERFACE)
  target_include_directories(${_target} SYSTEM INTERFACE ${_glint_host_headers})
endforeach()
if(GLINT_BUILD_TESTS)
  add_library(doctest::doctest INTERFACE IMPORTED)
  target_include_directories(doctest::doctest SYSTEM INTERFACE ${_glint_host_headers})
  # include(doctest): doctest_discover_tests, which runs each test binary under Wine.
  list(APPEND CMAKE_MODULE_PATH /usr/lib/cmake/doctest)
endif()
