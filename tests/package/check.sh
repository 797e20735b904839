#!/usr/bin/env bash
# Installs glint from an existing build into a temporary prefix (mode install), or unpacks the
# Debian package cpack makes of it (mode deb: the package's control fields are checked, its
# /usr is the prefix), builds the consumer project against it with find_package, and again with
# add_subdirectory (mode subdirectory); runs the consumers. With the
# installed package it also builds examples/ (docs/hot-loop.md's <glint/hot.hpp> program), runs it and
# checks the JSON it writes. In both modes glint-compare (glint::glint-compare) compares two runs.
set -euo pipefail
src=$1 build=$2 mode=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# expect TEXT LOG COMMAND...: runs COMMAND to its end with its output in LOG, then checks that LOG
# has TEXT (printing LOG when not). Never `COMMAND | grep -q`: grep stops reading at the first
# match, and the program's next write then ends it with SIGPIPE (exit 141 under pipefail).
expect() {
  local text=$1 log=$2
  shift 2
  "$@" > "$log" 2>&1 || { cat "$log"; echo "$1 failed"; exit 1; }
  grep -qF -- "$text" "$log" || { cat "$log"; echo "$1 did not print: $text"; exit 1; }
}
prefix=$work/prefix
if [ "$mode" = deb ]; then
  # The .deb is what `apt install ./glint_*.deb` installs under /usr: unpacked here instead, so
  # the test writes nothing outside its directory.
  (cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake") > "$work/cpack.log" ||
    { cat "$work/cpack.log"; exit 1; }
  deb=$(echo "$work"/glint_*.deb)
  dpkg-deb -f "$deb" Package Version Architecture Depends | tee "$work/control"
  grep -q '^Depends: .*libstdc++6' "$work/control" ||
    { echo "the package's Depends lacks libstdc++6 (dpkg-shlibdeps on glint-compare)"; exit 1; }
  dpkg-deb -x "$deb" "$work/root"
  prefix=$work/root/usr
  [ -x "$prefix/bin/glint-compare" ] || { echo "the package has no /usr/bin/glint-compare"; exit 1; }
  mode=install
fi
if [ "$mode" = install ]; then
  [ -d "$prefix" ] || cmake --install "$build" --prefix "$prefix" > "$work/install.log"
  cmake -S "$src/tests/package/consumer" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$prefix" > "$work/configure.log"
else
  cmake -S "$src/tests/package/consumer" -B "$work/build" -DCMAKE_BUILD_TYPE=Release \
        -DGLINT_SOURCE_DIR="$src" > "$work/configure.log"
fi
cmake --build "$work/build" -j2 > "$work/build.log" || { cat "$work/build.log"; exit 1; }
expect "ok    consumer/add" "$work/run.log" "$work/build/consumer"
cat "$work/run.log"
expect "ok    consumer/own_main" "$work/own_main.log" "$work/build/consumer_own_main"
expect "consumer/add" "$work/bench.log" "$work/build/consumer" --bench --bench-min-time=1
expect "BM_consumer_sum/64" "$work/gbench_list.log" "$work/build/consumer_gbench" --benchmark_list_tests
expect "ok    BM_consumer_sum/8" "$work/gbench_run.log" "$work/build/consumer_gbench" --benchmark_dry_run
# glint-compare, as the package provides it (installed in bin/, or built in the tree), compares
# two runs of the consumer.
[ "$mode" = install ] || cmake --build "$work/build" --target glint-compare > "$work/compare-build.log"
compare=$(cat "$work/build/glint-compare.path")
[ "$mode" != install ] || [ "$compare" = "$prefix/bin/glint-compare" ] ||
  { echo "glint::glint-compare is $compare, not the installed bin/glint-compare"; exit 1; }
"$work/build/consumer" --bench --bench-min-time=0.05 --bench-json="$work/a.json" > /dev/null
"$work/build/consumer" --bench --bench-min-time=0.05 --bench-json="$work/b.json" > /dev/null
"$compare" "$work/a.json" "$work/b.json" | tee "$work/compare.log"
grep -q "b.json vs $work/a.json: " "$work/compare.log" || { echo "glint-compare did not compare"; exit 1; }
if [ "$mode" = install ]; then
  # Every installed public header compiles alone with -I<prefix>/include and nothing else.
  for h in "$prefix/include/glint/"*.hpp; do
    name=${h#"$prefix/include/"}
    echo "#include <$name>" | g++ -std=c++20 -I"$prefix/include" -x c++ -fsyntax-only - \
      || { echo "public header <$name> does not compile alone"; exit 1; }
  done
  echo "every public header compiles alone with -I<prefix>/include"
  # pkg-config: docs/install.md's one-line build of a consumer with its own main().
  export PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name glint.pc)")"
  pkg-config --cflags --libs glint glint-main
  # shellcheck disable=SC2046
  g++ -O2 -DNDEBUG "$src/tests/package/consumer/consumer.cpp" -o "$work/pc_consumer" \
      $(pkg-config --cflags --libs glint-main)
  expect "ok    consumer/add" "$work/pc_consumer.log" "$work/pc_consumer"
  echo "pkg-config consumer built and ran"
  # The Google Benchmark drop-in, in place of `pkg-config benchmark_main`.
  # shellcheck disable=SC2046
  g++ -O2 -DNDEBUG "$src/tests/package/consumer/gb_suite.cpp" -o "$work/pc_gbench" \
      $(pkg-config --cflags --libs glint-benchmark-main)
  expect "ok    BM_consumer_sum/64" "$work/pc_gbench.log" "$work/pc_gbench" --benchmark_dry_run
  echo "pkg-config Google Benchmark suite built and ran on the drop-in"
  # examples/ (docs/hot-loop.md's <glint/hot.hpp> program) against the installed package; the
  # add_subdirectory mode skips it (a second full library build, and nothing new to check).
  cmake -S "$src/examples" -B "$work/examples" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$prefix" > "$work/examples-configure.log"
  cmake --build "$work/examples" -j2 > "$work/examples-build.log" || { cat "$work/examples-build.log"; exit 1; }
  "$work/examples/hot_loop" "$work/hot_loop.json" | tee "$work/hot_loop.log"
  grep -q "hot_loop: done (20000 calls" "$work/hot_loop.log"
  grep -Eq '^\{"ticks": \{"count": ?20000,' "$work/hot_loop.json" || { cat "$work/hot_loop.json"; exit 1; }
fi
echo "consumer built and ran ($mode)"
