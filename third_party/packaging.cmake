# Installs glint as a CMake package: find_package(glint) gives glint::glint and glint::main.
# fmt and xbyak are used header-only inside the library, so consumers need neither.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS glint glint_main EXPORT glintTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY engine/include/glint DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# <glint/hot.hpp> is header-only and reaches the arch/ and os/ readers it inlines.
install(DIRECTORY arch os DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/glint
  FILES_MATCHING PATTERN "*.hpp")
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
