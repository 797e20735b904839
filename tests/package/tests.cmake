# The CMake package: a consumer project built against the installed package, against the
# Debian package, and through add_subdirectory.
add_test(NAME package/find_package
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} install)
add_test(NAME package/add_subdirectory
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} subdirectory)
# The add_subdirectory build compiles the whole library without a cache: on a busy 2-vCPU host
# (load ~12) it took 13 minutes.
set_tests_properties(package/find_package package/add_subdirectory PROPERTIES TIMEOUT 1500)
# The Debian package (cpack -G DEB) of the same tree, unpacked, used like the installed one.
add_test(NAME package/deb
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} deb)
set_tests_properties(package/deb PROPERTIES TIMEOUT 600)
# Build-type and option defaults, top level and as a subproject (configure only: seconds).
add_test(NAME package/build_type_defaults
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/build_type.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(package/build_type_defaults PROPERTIES TIMEOUT 300)
