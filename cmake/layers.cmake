# cmake/layers.cmake: glint's layers as CMake targets, so the build enforces their directions.
#
# libglint.a is built from the outer layers arch (ISA primitives), os (kernel interfaces; uses
# arch), catalog (the metric data model) and engine, itself five layers of engine/ sub-folders
# (core, counting, measurement, output, app: the table in engine/CMakeLists.txt says which folders
# and which layers each uses). Each layer L is two targets:
#   glint_L_headers  INTERFACE: the include root of L — a directory in the build tree holding
#                    links to L's folders at their own paths (L -> L/, or engine/F -> engine/F/
#                    for each folder F of an engine layer) — plus the roots of the layers L uses;
#   glint_L          OBJECT (when L has sources): compiled against glint_L_headers only, its
#                    objects archived into glint.
# So `#include "engine/..."` from os/, or "engine/runner/..." from engine/tiers/, finds no file
# and does not compile. Headers that public headers include (<glint/detail/...>) are reached
# through glint_public instead (cmake/public_headers.cmake).

# glint_layer(NAME [FOLDERS path...] [SOURCES file...] [USES layer...] [PRIVATE target...]
#             [ARCHIVE library])
# FOLDERS: the layer's folders, relative to the source root (default: NAME). ARCHIVE: the
# library its objects go into (default: glint).
function(glint_layer name)
  cmake_parse_arguments(L "" "ARCHIVE" "FOLDERS;SOURCES;USES;PRIVATE" ${ARGN})
  if(NOT L_ARCHIVE)
    set(L_ARCHIVE glint)
  endif()
  if(NOT L_FOLDERS)
    set(L_FOLDERS "${name}")
  endif()
  set(view "${PROJECT_BINARY_DIR}/layers/${name}")
  set(links)
  set(parents)
  foreach(folder IN LISTS L_FOLDERS)
    list(APPEND links "${view}/${folder}")
    get_filename_component(parent "${view}/${folder}" DIRECTORY)
    list(APPEND parents "${parent}")
    file(MAKE_DIRECTORY "${parent}")
    if(NOT IS_SYMLINK "${view}/${folder}")
      file(CREATE_LINK "${PROJECT_SOURCE_DIR}/${folder}" "${view}/${folder}" SYMBOLIC)
    endif()
  endforeach()
  # A folder that left this layer leaves its view too (only the link is removed).
  list(REMOVE_DUPLICATES parents)
  foreach(parent IN LISTS parents)
    file(GLOB entries LIST_DIRECTORIES true "${parent}/*")
    foreach(entry IN LISTS entries)
      if(IS_SYMLINK "${entry}" AND NOT entry IN_LIST links)
        file(REMOVE "${entry}")
      endif()
    endforeach()
  endforeach()
  add_library(glint_${name}_headers INTERFACE)
  target_include_directories(glint_${name}_headers INTERFACE "$<BUILD_INTERFACE:${view}>")
  foreach(used IN LISTS L_USES)
    target_link_libraries(glint_${name}_headers INTERFACE glint_${used}_headers)
  endforeach()
  if(L_SOURCES)
    add_library(glint_${name} OBJECT ${L_SOURCES})
    target_link_libraries(glint_${name} PRIVATE glint_${name}_headers ${L_PRIVATE})
    target_compile_features(glint_${name} PRIVATE cxx_std_20)
    set_target_properties(glint_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON
                                                   UNITY_BUILD ${GLINT_UNITY_BUILD}
                                                   UNITY_BUILD_BATCH_SIZE 16)
    target_sources(${L_ARCHIVE} PRIVATE $<TARGET_OBJECTS:glint_${name}>)
  endif()
endfunction()
