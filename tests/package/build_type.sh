#!/usr/bin/env bash
# The build-type and option defaults a user meets (configure only, no build):
#   - glint configured on its own with no build type builds Release;
#   - inside another project (add_subdirectory) with no build type, glint leaves the project's
#     build type alone, warns at configure time, and builds neither its tests nor its suite.
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S "$src" -B "$work/top" -DGLINT_BUILD_TESTS=OFF -DGLINT_BUILD_BENCH=OFF > "$work/top.log" 2>&1 \
  || { cat "$work/top.log"; exit 1; }
grep -q '^CMAKE_BUILD_TYPE:STRING=Release$' "$work/top/CMakeCache.txt" \
  || { echo "top-level glint without a build type is not Release"; grep CMAKE_BUILD_TYPE "$work/top/CMakeCache.txt"; exit 1; }
echo "top level: Release by default"
cmake -S "$src/tests/package/consumer" -B "$work/sub" -DGLINT_SOURCE_DIR="$src" > "$work/sub.log" 2>&1 \
  || { cat "$work/sub.log"; exit 1; }
grep -q 'glint: CMAKE_BUILD_TYPE is empty' "$work/sub.log" \
  || { echo "no configure warning for a subproject without a build type"; cat "$work/sub.log"; exit 1; }
if grep -q '^CMAKE_BUILD_TYPE:STRING=.\+$' "$work/sub/CMakeCache.txt"; then
  echo "glint changed its parent project's build type:"; grep CMAKE_BUILD_TYPE "$work/sub/CMakeCache.txt"; exit 1
fi
grep -q '^GLINT_BUILD_TESTS:BOOL=OFF$' "$work/sub/CMakeCache.txt" || { echo "subproject builds glint's tests"; exit 1; }
grep -q '^GLINT_BUILD_BENCH:BOOL=OFF$' "$work/sub/CMakeCache.txt" || { echo "subproject builds glint's suite"; exit 1; }
echo "subproject: build type left to the parent, a warning, no tests or suite"
