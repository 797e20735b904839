# Finds glint's Debian-packaged dependencies. No sources are copied into the tree:
# a missing package fails configure with the name of the package to install.
#
#   fmt      libfmt-dev     used header-only (FMT_HEADER_ONLY), so nothing links libfmt
#   doctest  doctest-dev    tests only
#   xbyak    libxbyak-dev   x86-64 JIT stubs only
#   libpfm4  libpfm4-dev    headers only; libpfm.so.4 is loaded with dlopen at run time
#   libdw    libdw-dev      headers only (elfutils/libdw.h, dwarf.h); libdw.so.1 is loaded with
#                           dlopen by the profile's symbolizer (inline chains, source lines)
#   nlohmann nlohmann-json3-dev  header-only; reads --bench-json documents (engine/compare/)

function(glint_missing what package)
  message(FATAL_ERROR
    "glint: ${what} not found. Install it with:  apt-get install -y ${package}\n"
    "(or point CMAKE_PREFIX_PATH at an installation of ${what})")
endfunction()

if(CMAKE_CROSSCOMPILING AND GLINT_OS STREQUAL "windows")
  include(${CMAKE_CURRENT_LIST_DIR}/cross_headers.cmake)
  return()
endif()

find_package(fmt CONFIG QUIET)
if(NOT fmt_FOUND)
  glint_missing("fmt" "libfmt-dev")
endif()
add_library(glint_fmt INTERFACE)
target_link_libraries(glint_fmt INTERFACE fmt::fmt-header-only)

find_package(nlohmann_json CONFIG QUIET)
if(nlohmann_json_FOUND)
  add_library(glint_nlohmann INTERFACE)
  target_link_libraries(glint_nlohmann INTERFACE nlohmann_json::nlohmann_json)
else()
  find_path(GLINT_NLOHMANN_INCLUDE nlohmann/json.hpp)
  if(NOT GLINT_NLOHMANN_INCLUDE)
    glint_missing("nlohmann-json" "nlohmann-json3-dev")
  endif()
  add_library(glint_nlohmann INTERFACE)
  target_include_directories(glint_nlohmann SYSTEM INTERFACE "${GLINT_NLOHMANN_INCLUDE}")
endif()

if(GLINT_ARCH STREQUAL "x86_64")
  find_package(xbyak CONFIG QUIET)
  if(xbyak_FOUND)
    add_library(glint_xbyak INTERFACE)
    target_link_libraries(glint_xbyak INTERFACE xbyak::xbyak)
  else()
    find_path(GLINT_XBYAK_INCLUDE xbyak/xbyak.h)
    if(NOT GLINT_XBYAK_INCLUDE)
      glint_missing("xbyak" "libxbyak-dev")
    endif()
    add_library(glint_xbyak INTERFACE)
    target_include_directories(glint_xbyak SYSTEM INTERFACE "${GLINT_XBYAK_INCLUDE}")
  endif()
endif()

if(GLINT_OS STREQUAL "linux")
  find_path(GLINT_PFM_INCLUDE perfmon/pfmlib_perf_event.h)
  if(NOT GLINT_PFM_INCLUDE)
    glint_missing("libpfm4 headers" "libpfm4-dev")
  endif()
  add_library(glint_pfm_headers INTERFACE)
  target_include_directories(glint_pfm_headers SYSTEM INTERFACE "${GLINT_PFM_INCLUDE}")
  find_path(GLINT_DW_INCLUDE elfutils/libdw.h)
  find_path(GLINT_DWARF_H_INCLUDE dwarf.h)
  if(NOT GLINT_DW_INCLUDE OR NOT GLINT_DWARF_H_INCLUDE)
    glint_missing("libdw headers" "libdw-dev")
  endif()
  add_library(glint_dw_headers INTERFACE)
  target_include_directories(glint_dw_headers SYSTEM INTERFACE "${GLINT_DW_INCLUDE}"
                             "${GLINT_DWARF_H_INCLUDE}")
endif()

if(GLINT_BUILD_TESTS)
  find_package(doctest CONFIG QUIET)
  if(NOT doctest_FOUND)
    find_path(GLINT_DOCTEST_INCLUDE doctest/doctest.h)
    if(NOT GLINT_DOCTEST_INCLUDE)
      glint_missing("doctest" "doctest-dev")
    endif()
    add_library(doctest::doctest INTERFACE IMPORTED)
    target_include_directories(doctest::doctest INTERFACE "${GLINT_DOCTEST_INCLUDE}")
  endif()
endif()

# Google Benchmark is optional: it only builds the bench/ comparison program.
find_package(benchmark CONFIG QUIET)
