#!/usr/bin/env bash
# json_both_ways.sh GLINT_EXE GB_EXE GLINT_COMPARE: Google Benchmark's compare.py reads two
# documents the drop-in wrote (--benchmark_out), and glint-compare judges a Google Benchmark
# baseline (its --benchmark_out) against a glint run of the same file.
set -u
glint_exe=$1 gb_exe=$2 compare=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
filter='--benchmark_filter=MapFixture/Lookup/8$'
for side in a b; do
    "$glint_exe" "$filter" --benchmark_repetitions=3 --benchmark_out="$tmp/$side.json" \
        --quiet-environment >"$tmp/$side.log" 2>&1 || { echo "FAIL: drop-in run"; cat "$tmp/$side.log"; exit 1; }
done
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); b=d["benchmarks"]; assert d["context"] and b[0]["name"]=="MapFixture/Lookup/8" and [x.get("aggregate_name") for x in b if x["run_type"]=="aggregate"]==["mean","median","stddev","cv"], b' "$tmp/a.json" || { echo "FAIL: schema"; cat "$tmp/a.json"; exit 1; }
echo "ok: the drop-in wrote Google Benchmark's schema"
py=/usr/bin/python3
tool=/usr/share/benchmark/compare.py
# A build whose OS back end has no thread CPU clock (the generic-OS port) writes cpu_time null,
# which compare.py cannot subtract: that check is for builds that measure it.
no_cpu=$(python3 -c 'import json,sys; print(any(x.get("cpu_time") is None for x in json.load(open(sys.argv[1]))["benchmarks"]))' "$tmp/a.json")
if [ "$no_cpu" = True ]; then
    echo "cpu_time is null (this build's OS back end has no thread CPU clock): compare.py not checked"
    skipped=1
elif [ -f "$tool" ] && "$py" -c 'import scipy, numpy' 2>/dev/null; then
    "$py" "$tool" benchmarks "$tmp/a.json" "$tmp/b.json" >"$tmp/compare.out" 2>&1 || { echo "FAIL: compare.py"; cat "$tmp/compare.out"; exit 1; }
    grep -q "MapFixture/Lookup/8" "$tmp/compare.out" || { echo "FAIL: compare.py printed no row"; cat "$tmp/compare.out"; exit 1; }
    echo "ok: compare.py read both documents"; cat "$tmp/compare.out"
else
    echo "compare.py or python3-scipy missing (apt-get install libbenchmark-tools python3-scipy): not checked"
    skipped=1
fi
"$gb_exe" "$filter" --benchmark_min_time=0.05 --benchmark_out="$tmp/gb.json" >/dev/null 2>&1 || { echo "FAIL: Google Benchmark run"; exit 1; }
"$glint_exe" "$filter" --bench-json="$tmp/glint.json" --quiet-environment >/dev/null 2>&1 || { echo "FAIL: glint run"; exit 1; }
"$compare" "$tmp/gb.json" "$tmp/glint.json" >"$tmp/judged.out" 2>&1; rc=$?
cat "$tmp/judged.out"
[ $rc -le 1 ] || { echo "FAIL: glint-compare exited $rc"; exit 1; }
grep -q "MapFixture/Lookup/8" "$tmp/judged.out" && grep -q "Google Benchmark JSON" "$tmp/judged.out" || { echo "FAIL: glint-compare did not judge the row"; exit 1; }
echo "ok: glint-compare judged a Google Benchmark baseline"
[ -z "${skipped:-}" ] || exit 77
