# tests/readme/tests.cmake (included by tests/CMakeLists.txt): the guide (README.md, docs/) checked
# against the code:
#   readme/cpp_blocks     every ```cpp block builds against the installed package (check_blocks.sh
#                         says how each kind of block is built);
#   readme/links          every relative link points at a file, every #anchor at a heading;
#   readme/quick_start    README's quick start runs as written (quick_start.sh: what it reuses);
#   readme/compare_flags  docs/comparing.md's glint-compare flags are those of its --help.
# They need only the library targets (which every test binary already depends on) and
# glint-compare.
add_test(NAME readme/cpp_blocks
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_blocks.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
set_tests_properties(readme/cpp_blocks PROPERTIES TIMEOUT 300)
add_test(NAME readme/links COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_links.sh ${PROJECT_SOURCE_DIR})
if(TARGET glint-compare)
  add_test(NAME readme/compare_flags
           COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/compare_flags.sh ${PROJECT_SOURCE_DIR}
                   $<TARGET_FILE:glint-compare>)
  # The quick start ends with glint-compare --alternate, which runs programs only on Linux.
  if(GLINT_OS STREQUAL "linux")
    add_test(NAME readme/quick_start
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/quick_start.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
    set_tests_properties(readme/quick_start PROPERTIES TIMEOUT 300)
  endif()
endif()
