# tests/bench/tests.cmake (included by tests/CMakeLists.txt): bench/aa.sh, the A/A script behind
# docs/comparing.md's false-alarm rate, counts a flagged row and fails beyond 1 in 20 (tests/bench/aa_check.sh,
# on the A/B fixture; the rate itself is measured by running bench/aa.sh, not in tests). Linux
# only: aa.sh runs glint-compare --alternate, which the generic OS back end cannot (no processes).
find_program(GLINT_BASH bash)
find_program(GLINT_JQ jq)  # aa.sh and gate.sh read glint-compare's JSON with it
if(GLINT_BASH AND GLINT_JQ AND GLINT_OS STREQUAL "linux" AND TARGET glint_fixture_ab
   AND TARGET glint-compare)
  add_test(NAME bench/aa.sh
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/aa_check.sh ${PROJECT_SOURCE_DIR}/bench/aa.sh
            $<TARGET_FILE:glint_fixture_ab> $<TARGET_FILE:glint-compare> ${PROJECT_BINARY_DIR}/aa-check)
  set_tests_properties(bench/aa.sh PROPERTIES TIMEOUT 300)
endif()

# bench/load.sh (idle against a competitor pinned to the measuring CPU, glint beside Google
# Benchmark) cannot rot: --tiny runs it end to end and tests/bench/load_check.sh checks the
# table's form and that the competitor dies with it, never a figure (so no quiet machine needed).
# Only where the suite is built (the sanitizer and port trees build no bench/) and jq is found;
# RUN_SERIAL: its busy loop must not take a CPU from a timing test running beside it.
if(GLINT_BASH AND GLINT_JQ AND TARGET glint_bench)
  if(TARGET glint_load_google_benchmark)
    set(_gb $<TARGET_FILE:glint_load_google_benchmark>)
  else()
    set(_gb none)
  endif()
  add_test(NAME "bench/load.sh --tiny"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/load_check.sh ${PROJECT_SOURCE_DIR}/bench/load.sh
            $<TARGET_FILE:glint_bench> ${_gb} ${PROJECT_BINARY_DIR}/load-check)
  set_tests_properties("bench/load.sh --tiny" PROPERTIES TIMEOUT 300 RUN_SERIAL TRUE)
endif()

# bench/gate.sh (the gate on a shared machine, docs/comparing.md) counts A/A and A/B outcomes per
# condition: tests/bench/gate_check.sh runs it on stand-ins with fixed outcomes (no measuring).
if(GLINT_BASH AND GLINT_JQ AND GLINT_OS STREQUAL "linux")
  add_test(NAME bench/gate.sh
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/gate_check.sh ${PROJECT_SOURCE_DIR}/bench/gate.sh
            ${PROJECT_BINARY_DIR}/gate-check)
  set_tests_properties(bench/gate.sh PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()

# bench/asm_vs_rdtscp.sh (glint's add-cycles against a plain rdtscp reference, idle and beside a
# busy loop on CPU 1) cannot rot: --tiny runs it end to end and tests/bench/asm_vs_rdtscp_check.sh
# checks its lines' form, never a figure. x86-64 only; RUN_SERIAL for its busy loop.
if(GLINT_BASH AND GLINT_JQ AND TARGET glint_instructions AND TARGET glint_rdtscp_chains)
  add_test(NAME "bench/asm_vs_rdtscp.sh --tiny"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/asm_vs_rdtscp_check.sh
            ${PROJECT_SOURCE_DIR}/bench/asm_vs_rdtscp.sh ${PROJECT_BINARY_DIR} ${PROJECT_BINARY_DIR}/asm-vs-rdtscp-check)
  set_tests_properties("bench/asm_vs_rdtscp.sh --tiny" PROPERTIES TIMEOUT 300 RUN_SERIAL TRUE
                       SKIP_RETURN_CODE 77)
endif()

# bench/compare_scale.sh (docs/comparing.md's large-document figures) cannot rot: a 200-row pair
# runs end to end and tests/bench/compare_scale_check.sh checks the lines' form, never a figure.
find_program(GLINT_PYTHON3 python3)
if(GLINT_BASH AND GLINT_PYTHON3 AND EXISTS /usr/bin/time AND TARGET glint-compare)
  add_test(NAME "bench/compare_scale.sh (200 rows)"
    COMMAND ${GLINT_BASH} ${CMAKE_CURRENT_LIST_DIR}/compare_scale_check.sh
            ${PROJECT_SOURCE_DIR}/bench/compare_scale.sh $<TARGET_FILE:glint-compare>
            ${PROJECT_BINARY_DIR}/compare-scale-check)
  set_tests_properties("bench/compare_scale.sh (200 rows)" PROPERTIES TIMEOUT 300)
endif()
