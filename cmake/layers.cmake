# cmake/layers.cmake: glint's layers as CMake targets, so the build enforces their directions.
#
# libglint.a is built from four layers: arch (ISA primitives), os (kernel interfaces; uses arch),
# catalog (the metric data model) and engine (everything else; uses os and catalog). Each layer
# L is two targets:
#   glint_L_headers  INTERFACE: the include root of L — a directory in the build tree holding one
#                    link, L -> the layer's sources — plus the roots of the layers L uses;
#   glint_L          OBJECT (when L has sources): compiled against glint_L_headers only, its
#                    objects archived into glint.
# So `#include "engine/..."` from os/, or "os/..." from catalog/, finds no file and does not
# compile. Headers that public headers include (<glint/detail/...>) are reached through
# glint_public instead (cmake/public_headers.cmake).

# glint_layer(NAME [SOURCES file...] [USES layer...] [PRIVATE target...])
function(glint_layer name)
  cmake_parse_arguments(L "" "" "SOURCES;USES;PRIVATE" ${ARGN})
  set(view "${PROJECT_BINARY_DIR}/layers/${name}")
  file(MAKE_DIRECTORY "${view}")
  if(NOT IS_SYMLINK "${view}/${name}")
    file(CREATE_LINK "${PROJECT_SOURCE_DIR}/${name}" "${view}/${name}" SYMBOLIC)
  endif()
  add_library(glint_${name}_headers INTERFACE)
  target_include_directories(glint_${name}_headers INTERFACE "$<BUILD_INTERFACE:${view}>")
  foreach(used IN LISTS L_USES)
    target_link_libraries(glint_${name}_headers INTERFACE glint_${used}_headers)
  endforeach()
  if(L_SOURCES)
    add_library(glint_${name} OBJECT ${L_SOURCES})
    target_link_libraries(glint_${name} PRIVATE glint_${name}_headers ${L_PRIVATE})
    target_compile_features(glint_${name} PRIVATE cxx_std_20)
    set_target_properties(glint_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    target_sources(glint PRIVATE $<TARGET_OBJECTS:glint_${name}>)
  endif()
endfunction()
