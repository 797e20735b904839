#!/usr/bin/env bash
# tests/bench/gate_check.sh: bench/gate.sh counts what it claims to count. Its figures
# (docs/comparing.md: the gate on a shared machine) are only as good as its accounting, so here
# it runs on stand-ins whose outcomes are fixed: a glint-compare that passes and abstains in
# turn on A/A and fails two changed rows and one unchanged row on A/B, and a Google Benchmark
# and compare.py that find one changed and one unchanged row slower on A/B (the threaded one,
# named with Google Benchmark's "/threads:2"). Nothing is measured; no load is started.
#
#   gate_check.sh GATE_SCRIPT WORK_DIR
set -uo pipefail
gate=$1 work=$2
fail() { echo "gate: FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
command -v jq >/dev/null || { echo "gate: jq is not installed: skipped"; exit 77; }

printf '#!/bin/sh\nexit 0\n' >"$work/a" && printf '#!/bin/sh\nexit 0\n' >"$work/b"
cat >"$work/glint-compare" <<FAKE
#!/usr/bin/env bash
# A/A: passed, then could not judge, in turn; A/B: two changed rows and "sort" failed.
for arg; do case \$arg in --alternate=*|--fail-if-slower=*|--format=*) ;; *) sides+=("\$arg") ;; esac; done
if [[ \${sides[0]} == "\${sides[1]}" ]]; then
  n=\$(cat "$work/aa-count" 2>/dev/null || echo 0); echo \$((n + 1)) >"$work/aa-count"
  if ((n % 2)); then echo '{"gate": {"rows": [], "unjudged": [{"row": "sort", "reason": "runs disagree"}]}}'; exit 3; fi
  echo '{"gate": {"rows": []}}'; exit 0
fi
echo '{"gate": {"rows": ["hash/fnv1a [len=256]", "memcpy [size=4KiB]", "sort"]}}'; exit 1
FAKE
for side in a b; do
  cat >"$work/gb-$side" <<FAKE
#!/usr/bin/env bash
for arg; do case \$arg in --benchmark_out=*) out=\${arg#*=} ;; esac; done
echo '{"context": {"side": "$side"}, "benchmarks": [{"name": "sort", "run_type": "iteration", "real_time": 1}]}' >"\$out"
FAKE
done
cat >"$work/compare.py" <<'FAKE'
import json, sys
if "--help" in sys.argv: sys.exit(0)
args = sys.argv[1:]
dump = args[args.index("-d") + 1]
base, new = (json.load(open(p))["context"]["side"] for p in args[-2:])
def row(name, change, p):
    return {"name": name, "measurements": [{"time": change}], "utest": {"time_pvalue": p}}
rows = [row("sort", 0.0, 0.9)]
if base != new:
    rows += [row("memcpy [size=4KiB]", 0.2, 0.01), row("select/branchless", 0.15, 0.2),
             row("lcg [threads=2]/threads:2", 0.3, 0.01)]
json.dump(rows, open(dump, "w"))
FAKE
chmod +x "$work"/a "$work"/b "$work"/glint-compare "$work"/gb-a "$work"/gb-b

GLINT_GATE_A="$work/a" GLINT_GATE_B="$work/b" GLINT_GATE_COMPARE="$work/glint-compare" \
GLINT_GATE_GB_A="$work/gb-a" GLINT_GATE_GB_B="$work/gb-b" \
  bash "$gate" --gates=2 --runs=2 --conditions=idle --compare-py="$work/compare.py" \
  >"$work/out" 2>"$work/err"
status=$?
cat "$work/out"
[[ $status -eq 0 ]] || fail "gate.sh exited $status (see $work/err)"
grep -q '^idle     glint   A/A exits 0/1/3: 1/0/1 of 2, unchanged rows failed: 0 | A/B exits 0/1/3: 0/2/0, changed rows caught: 4 of 6 (all 3 in 0 of 2 gates), unchanged rows blamed: 2 | wall per gate: ' "$work/out" ||
    fail "glint's line does not count the stand-in's outcomes"
grep -q '^idle     gbench  A/A exits 0/1/3: 2/0/0 of 2, unchanged rows failed: 0 | A/B exits 0/1/3: 0/2/0, changed rows caught: 2 of 6 (all 3 in 0 of 2 gates), unchanged rows blamed: 2 | wall per gate: ' "$work/out" ||
    fail "Google Benchmark's line does not count compare.py's outcomes"
grep -q '^         A/A not judged: sort: runs disagree$' "$work/out" || fail "no line naming the A/A row not judged"
grep -q '^         A/B blamed: sort, sort$' "$work/out" || fail "no line naming glint's blamed rows"
grep -q '^         A/B blamed: lcg \[threads=2\], lcg \[threads=2\]$' "$work/out" ||
    fail "no line naming Google Benchmark's blamed rows (its /threads:2 suffix dropped)"
# Bad input is an error of the script (2), never a measurement.
bash "$gate" --gates=0 >/dev/null 2>&1
[[ $? -eq 2 ]] || fail "--gates=0 was not refused with status 2"
echo "gate: ok"
