# tests/aarch64/toolchain.cmake: cross-compiling glint for the arm64 guest with Debian's
# g++-aarch64-linux-gnu. The target's libc and kernel headers come from the cross sysroot
# (/usr/aarch64-linux-gnu). The header-only dependencies (fmt, doctest, libpfm4's headers) are
# arch-independent and come from the host's /usr/include, searched only *after* the cross
# sysroot (-idirafter), so no host glibc or asm header can shadow a target one.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_CXX_FLAGS_INIT "-idirafter /usr/include")
