#!/usr/bin/env bash
# list_equal.sh GLINT_EXE GB_EXE [FLAGS...]: both list the same instances, in the same order.
set -u
glint_exe=$1 gb_exe=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$glint_exe" --benchmark_list_tests "$@" >"$tmp/glint" 2>"$tmp/glint.err" || { echo "FAIL: $glint_exe exited $?"; cat "$tmp/glint.err"; exit 1; }
"$gb_exe" --benchmark_list_tests "$@" >"$tmp/gb" 2>"$tmp/gb.err" || { echo "FAIL: $gb_exe exited $?"; cat "$tmp/gb.err"; exit 1; }
[ -s "$tmp/gb" ] || { echo "FAIL: Google Benchmark listed nothing"; exit 1; }
if ! diff -u "$tmp/gb" "$tmp/glint"; then
    echo "FAIL: the instances differ (- Google Benchmark, + glint's drop-in)"
    exit 1
fi
echo "ok: $(wc -l <"$tmp/gb") instances, the same names in the same order"
