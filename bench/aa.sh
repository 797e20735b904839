#!/usr/bin/env bash
# bench/aa.sh: how often glint's verdicts raise a false alarm on this machine (an A/A test).
# The shipped suite, unchanged, is measured as two "builds" A and B: RUNS runs of each, alternated
# (A, B, A, B, ...) so both share the machine's moods, each run with --bench-repeat=REPEAT; then
# glint-compare compares A's runs with B's (each side several runs: "a1.json,a2.json,..."). A row
# it calls faster or slower is a false alarm (same and noisy are not). Repeated PAIRS times, it
# prints each comparison's summary line and the total: flagged rows / compared rows.
# Exit status 1 when more than 1 row in 20 was flagged (the target README states), 0 otherwise.
#
#   bash bench/aa.sh [PAIRS [RUNS [REPEAT [suite flags...]]]]   (defaults: 5 pairs, 4 runs, 3)
#
# Builds glint_bench and glint-compare in build/ first (configure it as README's two commands do).
# GLINT_AA_BENCH=PROGRAM and GLINT_AA_COMPARE=PROGRAM use those programs instead (nothing is
# built); PROGRAM is called as the suite is: PROGRAM --bench --bench-repeat=N --bench-json=FILE
# [suite flags...], FILE's name starting with the side ("a" or "b").
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-5}
runs=${2:-4}
repeat=${3:-3}
shift $(( $# > 3 ? 3 : $# ))
bench=${GLINT_AA_BENCH:-./build/bench/glint_bench}
compare=${GLINT_AA_COMPARE:-./build/tools/glint-compare}
if [[ -z ${GLINT_AA_BENCH:-} || -z ${GLINT_AA_COMPARE:-} ]]; then
  [[ -d build ]] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$(nproc)" --target glint_bench glint-compare >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flagged=0 compared=0 same=0
for ((i = 1; i <= pairs; i++)); do
  a="" b=""
  for ((r = 1; r <= runs; r++)); do
    for side in a b; do
      out="$work/$side$r.json"
      "$bench" --bench --bench-repeat="$repeat" --bench-json="$out" "$@" \
        >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 2; }
    done
    a+="${a:+,}$work/a$r.json" b+="${b:+,}$work/b$r.json"
  done
  "$compare" "$a" "$b" >"$work/compare.txt" || { cat "$work/compare.txt" >&2; exit 2; }
  line=$(grep ' vs ' "$work/compare.txt")
  rows=$(grep -E '│ +(faster|slower)' "$work/compare.txt" | awk -F'│' '{gsub(/^ +| +$/, "", $2); print $2}' |
         paste -sd, || true)
  echo "pair $i: ${line##*json: }${rows:+ — flagged: $rows}"
  count() { sed -n "s/.* \([0-9]*\) $1 .*/\1/p" <<<"$line"; }
  over=$(sed -n 's/.* over \([0-9]*\) rows.*/\1/p' <<<"$line")
  flagged=$((flagged + $(count faster) + $(count slower)))
  same=$((same + $(count same)))
  compared=$((compared + ${over:-0}))
done
awk -v f="$flagged" -v s="$same" -v c="$compared" -v p="$pairs" -v n="$runs" -v r="$repeat" 'BEGIN {
  printf "A/A: %d of %d rows flagged faster or slower (%.1f%%), %d same (%.1f%%), over %d comparisons of %d runs against %d, --bench-repeat=%d\n",
         f, c, c ? 100 * f / c : 0, s, c ? 100 * s / c : 0, p, n, n, r }'
((compared > 0)) || { echo "A/A: no row was compared" >&2; exit 2; }
if ((20 * flagged > compared)); then
  echo "A/A: FAILED: more than 1 row in 20 flagged (the target is at most 1 in 20)"
  exit 1
fi
echo "A/A: passed (at most 1 row in 20 flagged)"
