#!/usr/bin/env bash
# Installs glint's build and test dependencies on Debian 12 with apt-get, only those missing.
# Run as root. The QEMU guest rigs (tests/aarch64, tests/numa) install their own extra packages
# (qemu-system-arm or qemu-system-x86, a cross compiler, cpio) when they run, and the HTML
# report's browser test (tests/html) installs chromium.
set -euo pipefail
# clang and libclang-rt-dev: the sanitizer and libFuzzer runtimes of tests/sanitize, tests/fuzz.
# clang-format-14, clang-tidy-14: the format and tidy checks (tests/hygiene), pinned to one version.
# jq: bench/load.sh reads the --bench-json documents with it (and its test, tests/bench).
# libbenchmark-tools, python3-scipy, python3-numpy: Google Benchmark's compare.py (and what it
# imports) reads the drop-in's JSON in tests/gbench (libbenchmark-dev builds its side) and
# judges Google Benchmark's side of bench/gate.sh.
# valgrind: --simulate runs the suite under its Callgrind, and the package ships the client-request
# header <valgrind/callgrind.h> the simulated tier is built with (docs/simulated.md).
# time: /usr/bin/time -v gives bench/compare_scale.sh its max RSS (and its test, tests/bench).
# g++-mingw-w64-x86-64-posix, wine64: the Windows build (cmake/toolchains/mingw-w64-x86_64.cmake,
# the posix thread model std::thread needs) and Wine, which runs its .exe files for ctest's
# port/windows entry (docs/windows.md).
packages=(g++ cmake make pkg-config libfmt-dev doctest-dev libxbyak-dev libpfm4 libpfm4-dev libdw1
          libdw-dev libbenchmark-dev clang libclang-rt-dev clang-format-14 clang-tidy-14
          nlohmann-json3-dev jq libbenchmark-tools python3-scipy python3-numpy valgrind time
          g++-mingw-w64-x86-64-posix wine64)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
