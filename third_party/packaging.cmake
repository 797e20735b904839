# Installs glint as a package: the CMake package (find_package(glint) gives glint::glint,
# glint::main, glint::benchmark, glint::benchmark_main and the imported executable glint::glint-compare), bin/glint-compare and a pkg-config file (glint.pc; glint-main.pc adds the main()). Headers install
# as include/glint/*.hpp (the public API) and include/glint/detail/ (config.hpp and the arch/
# and os/ headers <glint/hot.hpp> inlines: GLINT_DETAIL_HEADERS), so -I<prefix>/include alone
# compiles every public header. fmt and xbyak are used header-only inside the library, so
# consumers need neither; libglint.a needs -ldl (libpfm is loaded with dlopen).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS glint glint_main glint_benchmark glint_benchmark_main glint-compare EXPORT glintTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY engine/include/glint DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES "${PROJECT_BINARY_DIR}/include/glint/detail/config.hpp"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/glint/detail)
install(FILES "${PROJECT_BINARY_DIR}/include/glint/version.hpp"
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/glint)
foreach(_header IN LISTS GLINT_DETAIL_HEADERS)
  get_filename_component(_dir "${_header}" DIRECTORY)
  install(FILES "${_header}" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/glint/detail/${_dir})
endforeach()
install(EXPORT glintTargets NAMESPACE glint:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/glint)

file(WRITE "${PROJECT_BINARY_DIR}/glintConfig.cmake.in" [=[
@PACKAGE_INIT@
include("${CMAKE_CURRENT_LIST_DIR}/glintTargets.cmake")
check_required_components(glint)
]=])
configure_package_config_file("${PROJECT_BINARY_DIR}/glintConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/glintConfig.cmake"
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/glint)
write_basic_package_version_file("${PROJECT_BINARY_DIR}/glintConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/glintConfig.cmake" "${PROJECT_BINARY_DIR}/glintConfigVersion.cmake"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/glint)

# pkg-config: `pkg-config --cflags --libs glint` (your own main) or `glint-main` (glint's).
# Paths are relative to the .pc file, so the installed tree can move.
file(RELATIVE_PATH _pc_to_prefix "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
set(_glint_libs_private "")
foreach(_lib IN LISTS CMAKE_DL_LIBS)
  string(APPEND _glint_libs_private " -l${_lib}")
endforeach()
file(WRITE "${PROJECT_BINARY_DIR}/glint.pc" "\
prefix=\${pcfiledir}/${_pc_to_prefix}
includedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}
libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}

Name: glint
Description: C++20 micro-benchmark engine with zero-syscall performance-counter reads
Version: ${PROJECT_VERSION}
Cflags: -I\${includedir} -std=c++20
Libs: -L\${libdir} -lglint${_glint_libs_private}
")
file(WRITE "${PROJECT_BINARY_DIR}/glint-main.pc" "\
prefix=\${pcfiledir}/${_pc_to_prefix}
libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}

Name: glint-main
Description: glint with its main(): run the binary with --bench to measure
Version: ${PROJECT_VERSION}
Requires: glint = ${PROJECT_VERSION}
Libs: -L\${libdir} -lglint_main
")
# The Google Benchmark drop-in: `glint-benchmark` (your BENCHMARK_MAIN) or
# `glint-benchmark-main` (its main()), in place of `benchmark` / `benchmark_main`.
file(WRITE "${PROJECT_BINARY_DIR}/glint-benchmark.pc" "\
prefix=\${pcfiledir}/${_pc_to_prefix}
includedir=\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}
libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}

Name: glint-benchmark
Description: Google Benchmark's <benchmark/benchmark.h> served by glint
Version: ${PROJECT_VERSION}
Requires: glint = ${PROJECT_VERSION}
Cflags: -I\${includedir}/glint/dropin
Libs: -L\${libdir} -lglint_benchmark
")
file(WRITE "${PROJECT_BINARY_DIR}/glint-benchmark-main.pc" "\
prefix=\${pcfiledir}/${_pc_to_prefix}
libdir=\${prefix}/${CMAKE_INSTALL_LIBDIR}

Name: glint-benchmark-main
Description: BENCHMARK_MAIN's main() for glint's Google Benchmark drop-in
Version: ${PROJECT_VERSION}
Requires: glint-benchmark = ${PROJECT_VERSION}
Libs: -L\${libdir} -lglint_benchmark_main
")
install(FILES "${PROJECT_BINARY_DIR}/glint.pc" "${PROJECT_BINARY_DIR}/glint-main.pc"
  "${PROJECT_BINARY_DIR}/glint-benchmark.pc" "${PROJECT_BINARY_DIR}/glint-benchmark-main.pc"
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# A Debian package of the same install tree (docs/install.md): from a built tree,
# `cpack -G DEB --config build/CPackConfig.cmake` writes glint_<version>_<arch>.deb, installed
# with `apt install ./glint_*.deb`. Its Depends come from dpkg-shlibdeps on glint-compare; the
# libraries glint loads with dlopen (libpfm4, libdw) are Recommends: without them the raw/pfm
# events and the profile's source lines say they are unavailable, nothing else changes.
if(PROJECT_IS_TOP_LEVEL)
  set(CPACK_GENERATOR DEB)
  set(CPACK_PACKAGE_NAME glint)
  set(CPACK_PACKAGE_CONTACT "glint maintainers <maintainers@users.noreply.a-seed-f89eb41a.example>")
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
      "C++20 micro-benchmark engine with zero-syscall performance-counter reads")
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
  set(CPACK_DEBIAN_PACKAGE_SECTION devel)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "g++ (>= 4:12), cmake (>= 3.25), libpfm4, libdw1")
  set(CPACK_DEBIAN_PACKAGE_SUGGESTS "valgrind")
  include(CPack)
endif()
