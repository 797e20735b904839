# tests/readme/tests.cmake (included by tests/CMakeLists.txt): every ```cpp block of README.md
# builds against the installed package (check_blocks.sh says how each kind of block is built).
# Needs only the library targets, which every test binary already depends on.
add_test(NAME readme/cpp_blocks
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/check_blocks.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
set_tests_properties(readme/cpp_blocks PROPERTIES TIMEOUT 300)
