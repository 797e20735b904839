#!/usr/bin/env bash
# bench/aa.sh: how often glint's verdicts raise a false alarm on this machine (an A/A test).
# The shipped suite, unchanged, is measured as two "builds" base and new by the one-command
# recipe: glint-compare --alternate=RUNS --repeat=REPEAT SUITE SUITE (RUNS runs of each,
# alternated so both share the machine's moods, each with --bench-repeat=REPEAT; docs/ci.md).
# A row it calls faster or slower is a false alarm (same and noisy are not). Repeated PAIRS
# times, it prints each comparison's summary line and the total: flagged rows / compared rows.
# Exit status 1 when more than 1 row in 20 was flagged (the target docs/comparing.md states), 0 otherwise;
# 2 when a run or the comparison failed. Each pair is also gated (--fail-if-slower=GATE, 10 or
# GLINT_AA_GATE): the gate's outcome per pair and their count (an A/A pair should pass).
#
#   bash bench/aa.sh [PAIRS [RUNS [REPEAT [suite flags...]]]]   (defaults: 5 pairs, 8 runs, 3)
#
# Needs jq. Builds glint_bench and glint-compare in build/ first (configure it as README's two commands do).
# GLINT_AA_BENCH=PROGRAM and GLINT_AA_COMPARE=PROGRAM use those programs instead (nothing is
# built); PROGRAM is run as glint-compare --alternate runs a side: PROGRAM --bench
# --bench-repeat=N --bench-json=DIR/SIDE-I.json [suite flags...], SIDE being "base" or "new".
set -euo pipefail
cd "$(dirname "$0")/.."
pairs=${1:-5}
runs=${2:-8}
repeat=${3:-3}
shift $(( $# > 3 ? 3 : $# ))
bench=${GLINT_AA_BENCH:-./build/bench/glint_bench}
compare=${GLINT_AA_COMPARE:-./build/tools/glint-compare}
if [[ -z ${GLINT_AA_BENCH:-} || -z ${GLINT_AA_COMPARE:-} ]]; then
  [[ -d build ]] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$(nproc)" --target glint_bench glint-compare >/dev/null
fi
bench=$(command -v "$bench") || { echo "aa: no program $bench" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gate=${GLINT_AA_GATE:-10}
flagged=0 compared=0 same=0 gate_passed=0 gate_failed=0 gate_unjudged=0
for ((i = 1; i <= pairs; i++)); do
  status=0
  "$compare" --alternate="$runs" --repeat="$repeat" --fail-if-slower="$gate" --format=json \
    "$bench" "$bench" -- "$@" >"$work/compare.json" 2>"$work/err" || status=$?
  # 0 the gate passed, 1 it failed, 3 it could not judge; 2 is a run or the comparison that failed.
  # What the gate could not judge: "3 of 14 rows (runs disagree: 3)".
  case $status in
    0|1|3) ;;
    *) cat "$work/err" >&2; exit 2 ;;
  esac
  json() { jq -r "$1" "$work/compare.json"; }
  why=$(jq -r --argjson judged "$(json .gate.judged)" '.gate.unjudged |
        "\(length) of \(length + $judged) rows (" +
        (group_by(.reason) | map("\(.[0].reason): \(length)") | join(", ")) + ")"' "$work/compare.json")
  case $status in
    0) verdict=passed gate_passed=$((gate_passed + 1)) ;;
    1) verdict=FAILED gate_failed=$((gate_failed + 1)) ;;
    3) verdict="could not judge $why" gate_unjudged=$((gate_unjudged + 1)) ;;
  esac
  read -r over n_faster n_slower n_same n_noisy < <(json '.summaries[0] |
    "\(.compared) \(.faster) \(.slower) \(.same) \(.noisy)"')
  line="geometric mean $(json '.summaries[0].geomeanChangePercent // "—"')% over $over rows · $n_faster faster · $n_slower slower · $n_same same · $n_noisy noisy"
  took=$(sed -n 's/^alternated .* in \([0-9.]* s\);.*/\1/p' "$work/err")
  rows=$(json '.rows[] | select(.changes[0].verdict == "faster" or .changes[0].verdict == "slower")
               | .displayName' | paste -sd, || true)
  echo "pair $i: $line${rows:+ — flagged: $rows}${took:+ (alternated in $took)}; gate: $verdict"
  flagged=$((flagged + n_faster + n_slower))
  same=$((same + n_same))
  compared=$((compared + over))
done
awk -v f="$flagged" -v s="$same" -v c="$compared" -v p="$pairs" -v n="$runs" -v r="$repeat" 'BEGIN {
  printf "A/A: %d of %d rows flagged faster or slower (%.1f%%), %d same (%.1f%%), over %d comparisons of %d runs against %d, --bench-repeat=%d\n",
         f, c, c ? 100 * f / c : 0, s, c ? 100 * s / c : 0, p, n, n, r }'
echo "gate --fail-if-slower=$gate: $gate_passed passed, $gate_failed failed, $gate_unjudged could not judge, of $pairs pairs"
((compared > 0)) || { echo "A/A: no row was compared" >&2; exit 2; }
if ((20 * flagged > compared)); then
  echo "A/A: FAILED: more than 1 row in 20 flagged (the target is at most 1 in 20)"
  exit 1
fi
echo "A/A: passed (at most 1 row in 20 flagged)"
