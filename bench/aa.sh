#!/usr/bin/env bash
# bench/aa.sh: how often glint's verdicts raise a false alarm on this machine (an A/A test).
# The shipped suite runs twice, unchanged, and glint-compare compares the two runs; a row it calls
# faster or slower is a false alarm (same and noisy are not). Repeated PAIRS times, it prints
# each pair's summary line and the total: flagged rows / compared rows.
#
#   bash bench/aa.sh [PAIRS [REPEAT [suite flags...]]]     (defaults: 5 pairs, --bench-repeat=5)
#
# Builds glint_bench and glint-compare in build/ first (configure it as README's two commands do).
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-5}
repeat=${2:-5}
shift $(( $# > 2 ? 2 : $# ))
[[ -d build ]] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target glint_bench glint-compare >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flagged=0 compared=0
for ((i = 1; i <= pairs; i++)); do
  for side in a b; do
    ./build/bench/glint_bench --bench --bench-repeat="$repeat" --bench-json="$work/$side.json" "$@" \
      >/dev/null 2>"$work/$side.err" || { cat "$work/$side.err" >&2; exit 1; }
  done
  line=$(./build/tools/glint-compare "$work/a.json" "$work/b.json" | grep ' vs ')
  echo "pair $i: ${line#* vs }"
  count() { sed -n "s/.* \([0-9]*\) $1 .*/\1/p" <<<"$line"; }
  over=$(sed -n 's/.* over \([0-9]*\) rows.*/\1/p' <<<"$line")
  flagged=$((flagged + $(count faster) + $(count slower)))
  compared=$((compared + ${over:-0}))
done
awk -v f="$flagged" -v c="$compared" -v r="$repeat" -v p="$pairs" 'BEGIN {
  printf "A/A: %d of %d rows flagged faster or slower (%.1f%%) over %d pairs, --bench-repeat=%d\n",
         f, c, c ? 100 * f / c : 0, p, r }'
