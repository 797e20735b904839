#!/usr/bin/env bash
# tests/bench/compare_scale_check.sh: bench/compare_scale.sh, the large-document benchmark behind
# docs/comparing.md's figures, runs end to end on a small pair (200 rows of 16 samples) and
# prints its lines. Asserts no figure (the machine may be busy): the documents line, the
# glint-compare line with seconds and a max RSS in MB, the comparison's summary over every row,
# and the target line (not judged for 200 rows); exit status 0.
#
#   compare_scale_check.sh SCALE_SCRIPT GLINT_COMPARE WORK_DIR
set -uo pipefail
script=$1 compare=$2 work=$3
fail() { echo "compare_scale: FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
GLINT_SCALE_COMPARE="$compare" GLINT_SCALE_DIR="$work" bash "$script" 200 16 >"$work/out" 2>"$work/err"
status=$?
cat "$work/out"
[[ $status -eq 0 ]] || fail "compare_scale.sh exited $status (stderr: $(tail -3 "$work/err"))"
grep -Eq '^documents: 200 rows x 16 samples, [0-9]+ \+ [0-9]+ MB$' "$work/out" || fail "no documents line"
grep -Eq '^glint-compare: [0-9.]+ s elapsed \([0-9.]+ s user, [0-9.]+ s system\), max RSS [0-9]+ MB$' \
  "$work/out" || fail "no timing line"
grep -Eq 'vs .*base-200-16\.json: geometric mean .* over 200 rows' "$work/out" || fail "no summary over 200 rows"
grep -qxF 'target (80,000 rows under 10 s, under 600 MB): not judged, 200 rows' "$work/out" ||
  fail "no target line saying 200 rows are not judged"
echo "compare_scale: ok"
