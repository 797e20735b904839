# tests/aarch64/tests.cmake (included by tests/CMakeLists.txt): registers the arm64 QEMU rig.
# It runs on any Linux build host: it cross-builds the guest itself (tests/aarch64/rig.sh).
# Exit 77 is a skip only outside CI (tools not installable here); with CI set the rig fails
# instead, and it always fails when the guest's tests fail or print no result line.
if(GLINT_OS STREQUAL "linux" AND NOT CMAKE_CROSSCOMPILING)
  find_program(GLINT_BASH bash)
  if(GLINT_BASH)
    add_test(NAME rig/aarch64_qemu
      COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/rig.sh ${PROJECT_SOURCE_DIR}
              ${PROJECT_BINARY_DIR}/aarch64-rig)
    # First run: package installs, the kernel download and the cross build; later runs reuse
    # the cache and the build tree and take well under five minutes.
    set_tests_properties(rig/aarch64_qemu PROPERTIES
      TIMEOUT 1800
      SKIP_RETURN_CODE 77
      LABELS "rig;aarch64"
      RUN_SERIAL TRUE)
  endif()
endif()
