# tests/html/tests.cmake (included by tests/CMakeLists.txt): the HTML reports in headless
# Chromium (tests/html/check.sh). Exit 77 is a skip only outside CI (chromium not installable
# here); under CI the test fails instead.
find_program(GLINT_BASH bash)
if(GLINT_BASH AND TARGET glint_fixture_ab AND TARGET glint-compare)
  # The noise fixture's cases are measured unstably on purpose: the pages' "~" marks.
  set(_html_noise "")
  if(TARGET glint_fixture_noise)
    set(_html_noise $<TARGET_FILE:glint_fixture_noise>)
  endif()
  add_test(NAME html/chromium
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/check.sh $<TARGET_FILE:glint_fixture_ab>
            $<TARGET_FILE:glint-compare> ${PROJECT_BINARY_DIR}/html-check ${_html_noise})
  set_tests_properties(html/chromium PROPERTIES
    TIMEOUT 900
    SKIP_RETURN_CODE 77
    LABELS "html")
endif()
