# cmake/toolchains/mingw-w64-x86_64.cmake: cross-compiles glint for 64-bit Windows with
# Debian's mingw-w64 (g++-mingw-w64-x86-64-posix: the posix thread model, which std::thread and
# std::mutex need), and runs what it builds under Wine (wine64), so ctest and doctest's test
# discovery work on a Linux host (docs/windows.md).
#   cmake -S . -B build-windows --toolchain cmake/toolchains/mingw-w64-x86_64.cmake
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# The C++ runtime (libstdc++, libgcc, winpthread) linked in, so each .exe runs without the
# mingw DLLs beside it, under Wine or on Windows.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
# Wine runs the programs: its prefix lives in the build tree, its debug channels are off.
find_program(GLINT_WINE64 NAMES wine64 PATHS /usr/lib/wine NO_DEFAULT_PATH)
find_program(GLINT_WINE64 NAMES wine64)
if(GLINT_WINE64)
  set(CMAKE_CROSSCOMPILING_EMULATOR env WINEPREFIX=${CMAKE_BINARY_DIR}/wineprefix WINEDEBUG=-all
                                    ${GLINT_WINE64})
endif()
