# tests/hygiene/tests.cmake (included by tests/CMakeLists.txt): source checks of the suite itself.
# No test writes a host path under /dev, /proc or /sys (host_paths.sh), and the check finds what
# it names (host_paths_selftest.sh plants each kind of write). Product files (engine/, os/, arch/,
# catalog/, tools/) have at most 400 lines (file_sizes.sh) and no comment block over 11 lines
# (comment_blocks.sh: contracts stay short; rationale lives in docs/rationale.md). Installed headers (engine/include and
# the build's include root: the files the package installs) name no repository path
# (installed_headers.sh). checks_selftest.sh plants what
# file_sizes.sh, comment_blocks.sh, installed_headers.sh and format.sh must each find. Every C++
# source is as clang-format 14 writes it with .clang-format (format.sh). docs/architecture.md's
# lists of platform #ifs and of files calling the OS outside the sys() seam are the code's
# (architecture.sh).
find_program(GLINT_BASH bash)
if(GLINT_BASH)
  add_test(NAME "hygiene/no test writes a host path under /dev, /proc or /sys"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/host_paths.sh ${PROJECT_SOURCE_DIR})
  add_test(NAME "hygiene/the host-path check finds each planted write"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/host_paths_selftest.sh ${CMAKE_CURRENT_LIST_DIR}/host_paths.sh)
  add_test(NAME "hygiene/no product file has more than 400 lines"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/file_sizes.sh ${PROJECT_SOURCE_DIR} 400)
  add_test(NAME "hygiene/no product comment block has more than 11 lines"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/comment_blocks.sh ${PROJECT_SOURCE_DIR} 11)
  add_test(NAME "hygiene/no installed header names a repository path"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/installed_headers.sh ${PROJECT_SOURCE_DIR}/engine/include
            ${PROJECT_BINARY_DIR}/include)
  add_test(NAME "hygiene/every C++ source is clang-formatted"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/format.sh ${PROJECT_SOURCE_DIR})
  add_test(NAME "hygiene/docs/architecture.md lists every platform #if and direct system call"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/architecture.sh ${PROJECT_SOURCE_DIR})
  add_test(NAME "hygiene/the size, comment and installed-header checks find each planted violation"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/checks_selftest.sh ${CMAKE_CURRENT_LIST_DIR})
endif()
