#!/usr/bin/env bash
# errors.sh GLINT_EXE: what the drop-in refuses, and how an error reads.
set -u
exe=$1
out=$("$exe" --benchmark_repetitions=lots 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q -- "--benchmark_repetitions=lots: expected a count" <<<"$out" || { echo "FAIL: bad count: rc=$rc $out"; exit 1; }
out=$("$exe" --benchmark_out_format=csv --benchmark_out=/dev/null 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q -- "--benchmark_out_format=csv" <<<"$out" || { echo "FAIL: csv out: rc=$rc $out"; exit 1; }
out=$("$exe" '--benchmark_filter=(' 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "not an extended regular expression" <<<"$out" || { echo "FAIL: bad regex: rc=$rc $out"; exit 1; }
out=$("$exe" --benchmark_dry_run --benchmark_filter=BM_skip --with-skip 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q "zero is not a size" <<<"$out" || { echo "FAIL: SkipWithError: rc=$rc $out"; exit 1; }
echo ok
