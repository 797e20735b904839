#!/usr/bin/env bash
# complexity.sh GLINT_EXE [GB_EXE]: Complexity() on a drop-in family is fitted (a line under the
# tables; BigO and RMS rows in Google Benchmark's JSON, named as Google Benchmark names them).
set -u
exe=$1
gb=${2:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
out=$("$exe" '--benchmark_filter=BM_sum_(oN|auto)/' --benchmark_out="$dir/gl.json" \
      --bench-min-time=0.05 --quiet-environment 2>&1); rc=$?
[ $rc -eq 0 ] || { echo "FAIL: rc=$rc $out"; exit 1; }
grep -q "complexity: BM_sum_oN ~ O(n) (as Complexity() named it): .* ns × N, rms .*% (N 64…16384, 5 points)" <<<"$out" ||
  { echo "FAIL: no fit line for BM_sum_oN: $out"; exit 1; }
# oAuto: a model, or "undecided" where a loaded machine left two within the margin.
grep -E -q "complexity: BM_sum_auto (~ O\(|undecided: O\()" <<<"$out" ||
  { echo "FAIL: no fit line for BM_sum_auto: $out"; exit 1; }
/usr/bin/python3 - "$dir/gl.json" <<'PY' || exit 1
import json, sys
rows = json.load(open(sys.argv[1]))["benchmarks"]
names = [r["name"] for r in rows]
assert names.index("BM_sum_oN_BigO") == names.index("BM_sum_oN/16384") + 1, names
assert names.index("BM_sum_oN_RMS") == names.index("BM_sum_oN_BigO") + 1, names
big_o = rows[names.index("BM_sum_oN_BigO")]
assert big_o["big_o"] == "N" and big_o["run_type"] == "aggregate", big_o
assert big_o["real_coefficient"] > 0 and big_o["cpu_coefficient"] > 0, big_o
assert rows[names.index("BM_sum_oN_RMS")]["rms"] >= 0
assert "glint_decided" in rows[names.index("BM_sum_auto_BigO")]
PY
if [ -n "$gb" ]; then  # the same aggregate rows as Google Benchmark's own run of the file
  "$gb" '--benchmark_filter=BM_sum_(oN|auto)/' --benchmark_min_time=0.01 \
        --benchmark_out="$dir/gb.json" >/dev/null 2>&1 || { echo "FAIL: Google Benchmark's run"; exit 1; }
  agg() { /usr/bin/python3 -c 'import json,sys; print(" ".join(r["name"] for r in json.load(open(sys.argv[1]))["benchmarks"] if r.get("run_type") == "aggregate"))' "$1"; }
  [ "$(agg "$dir/gl.json")" = "$(agg "$dir/gb.json")" ] ||
    { echo "FAIL: aggregate rows differ: glint '$(agg "$dir/gl.json")' vs Google Benchmark '$(agg "$dir/gb.json")'"; exit 1; }
fi
echo ok
