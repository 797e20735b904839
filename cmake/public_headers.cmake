# cmake/public_headers.cmake: what `#include <glint/...>` reaches, in the build tree and once
# installed, so both are the same set of files.
#
#   <glint/*.hpp>            engine/include/glint/ — the public API
#   <glint/version.hpp>      generated from project(glint VERSION ...): the one version number
#   <glint/detail/config.hpp>  generated from GLINT_ARCH and GLINT_OS: the one definition of the
#                            back ends the library and its users' inline code agree on
#   <glint/detail/arch/...>, <glint/detail/os/...>
#                            the arch/ and os/ headers that <glint/hot.hpp> inlines
#                            (GLINT_DETAIL_HEADERS below); they include one another as
#                            <glint/detail/...> only, so -I<prefix>/include alone resolves them.
# In the build tree these are links under ${PROJECT_BINARY_DIR}/include to the sources; the
# target glint_public carries that include root.
set(GLINT_DETAIL_HEADERS
  arch/arch.hpp
  arch/x86_64/pmu.hpp
  arch/aarch64/counters.hpp
  arch/aarch64/pmu.hpp
  arch/generic/pmu.hpp
  os/os.hpp
  os/linux/mmap_page.hpp
  os/linux/x86_64/page_policy.hpp
  os/linux/aarch64/page_policy.hpp
  os/other/mmap_page.hpp)

set(_glint_public_root "${PROJECT_BINARY_DIR}/include")
configure_file("${PROJECT_SOURCE_DIR}/cmake/config.hpp.in"
               "${_glint_public_root}/glint/detail/config.hpp" @ONLY)
configure_file("${PROJECT_SOURCE_DIR}/cmake/version.hpp.in"
               "${_glint_public_root}/glint/version.hpp" @ONLY)
foreach(_header IN LISTS GLINT_DETAIL_HEADERS)
  set(_link "${_glint_public_root}/glint/detail/${_header}")
  get_filename_component(_dir "${_link}" DIRECTORY)
  file(MAKE_DIRECTORY "${_dir}")
  if(NOT IS_SYMLINK "${_link}")
    file(CREATE_LINK "${PROJECT_SOURCE_DIR}/${_header}" "${_link}" SYMBOLIC)
  endif()
endforeach()

add_library(glint_public INTERFACE)
target_include_directories(glint_public INTERFACE
  "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/engine/include>"
  "$<BUILD_INTERFACE:${_glint_public_root}>")
