# tests/layers/tests.cmake (included by tests/CMakeLists.txt): the build enforces the layers'
# directions (cmake/layers.cmake, engine/CMakeLists.txt). For each layer, one file including a
# header of a layer it may not use must fail to compile — for that reason: the compiler cannot
# find the header — and one including a header it may use must compile. Each is a target outside
# `all`, built by its test. A refused header must exist in the sources (checked here), so a
# renamed header cannot make its row pass by being missing everywhere.
set(_layer_checks
  # layer      header                            allowed
  "os          engine/model/json.hpp             no"
  "os          catalog/metric.hpp                no"
  "arch        os/perf_events.hpp                no"
  "catalog     os/perf_events.hpp                no"
  "catalog     engine/model/json.hpp             no"
  "engine      os/perf_events.hpp                yes"
  "engine      catalog/metric.hpp                yes"
  "os          arch/generic/pmu.hpp              yes"
  # engine's own layers: core -> counting -> measurement -> app, core -> output -> app
  "core        engine/counting/workload.hpp      no"
  "core        engine/runner/case_filter.hpp     no"
  "counting    engine/tiers/tier.hpp             no"
  "counting    engine/report/json_report.hpp     no"
  "measurement engine/report/json_report.hpp     no"
  "measurement engine/cli/options.hpp            no"
  "output      engine/tiers/tier.hpp             no"
  "output      engine/counting/workload.hpp      no"
  "output      engine/cli/options.hpp            no"
  # (small headers: each row compiles its header)
  "core        arch/arch.hpp                     yes"
  "counting    engine/stats/summary.hpp          yes"
  "measurement engine/counting/perf_read.hpp     yes"
  "output      engine/stats/summary.hpp          yes"
  "app         engine/tiers/request.hpp          yes"
  "app         engine/compare/verdict.hpp        yes")
set(_dir "${CMAKE_CURRENT_BINARY_DIR}/layer_checks")
file(MAKE_DIRECTORY "${_dir}")
foreach(_check IN LISTS _layer_checks)
  string(REGEX REPLACE " +" ";" _check "${_check}")
  list(GET _check 0 _layer)
  list(GET _check 1 _header)
  list(GET _check 2 _allowed)
  if(NOT EXISTS "${PROJECT_SOURCE_DIR}/${_header}")
    message(FATAL_ERROR "tests/layers: ${_header} is not in the sources; name another header")
  endif()
  string(MAKE_C_IDENTIFIER "${_layer}_${_header}" _id)
  file(WRITE "${_dir}/${_id}.cpp" "#include \"${_header}\"\n")
  add_library(glint_layer_check_${_id} OBJECT EXCLUDE_FROM_ALL "${_dir}/${_id}.cpp")
  # As the layer's own objects are compiled: its root, the public headers, fmt and nlohmann.
  target_link_libraries(glint_layer_check_${_id} PRIVATE glint_${_layer}_headers glint_public
                        glint_fmt glint_nlohmann)
  set(_name "layers/${_layer} includes ${_header}: ${_allowed}")
  add_test(NAME "${_name}"
           COMMAND ${CMAKE_COMMAND} --build ${PROJECT_BINARY_DIR} --target glint_layer_check_${_id})
  if(_allowed STREQUAL "yes")
    set_tests_properties("${_name}" PROPERTIES RESOURCE_LOCK build-tree)
  else()
    # Passes only when the compiler refused the include itself (not on any other failure).
    set_tests_properties("${_name}" PROPERTIES RESOURCE_LOCK build-tree
      PASS_REGULAR_EXPRESSION "${_header}: No such file or directory")
  endif()
endforeach()
