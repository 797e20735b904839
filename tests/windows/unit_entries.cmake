# tests/windows/unit_entries.cmake: the Windows tree's unit test entries, one per folder of
# tests/unit/ (unit/<folder>, e.g. unit/engine/report), each one run of the test binary under
# Wine with doctest's --source-file filter naming that folder's files. Not one entry per test
# case as elsewhere: each entry starts Wine once (measured: 501 entries took 14 min at -j2 on the
# CI host, docs/windows.md), and a test case's name with a non-ASCII character (—, ±, µ) does not
# survive Windows' ANSI command line, so --test-case=<name> would select nothing.
function(glint_windows_unit_entries binary)
  set(_folders)
  foreach(_file IN LISTS ARGN)
    file(RELATIVE_PATH _relative ${CMAKE_CURRENT_SOURCE_DIR} ${_file})
    get_filename_component(_folder ${_relative} DIRECTORY)
    get_filename_component(_name ${_relative} NAME)
    list(APPEND _folders ${_folder})
    list(APPEND _files_${_folder} "*${_folder}/${_name}")
  endforeach()
  list(REMOVE_DUPLICATES _folders)
  foreach(_folder IN LISTS _folders)
    list(JOIN _files_${_folder} "," _filter)
    add_test(NAME ${_folder} COMMAND ${binary} "--source-file=${_filter}")
    set_tests_properties(${_folder} PROPERTIES SKIP_RETURN_CODE 77 LABELS windows)
  endforeach()
endfunction()
