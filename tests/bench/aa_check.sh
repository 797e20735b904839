#!/usr/bin/env bash
# tests/bench/aa_check.sh: bench/aa.sh counts what it claims to count. The A/A script's figure
# (docs/comparing.md: false alarms, measured) is only as good as its accounting, and an A/A run on a quiet
# machine flags nothing, so a script that never counted a row would pass unnoticed. Here the new
# side of glint-compare --alternate runs the A/B fixture with "ab/changing" made 30% slower:
# aa.sh must name that row in every comparison, count it, and exit 1 (more than 1 row in 20
# flagged). A suite that fails is exit 2.
#
#   aa_check.sh AA_SCRIPT FIXTURE GLINT_COMPARE WORK_DIR
set -uo pipefail
aa=$1 fixture=$2 compare=$3 work=$4
fail() { echo "aa: FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"

# The new side's runs (glint-compare --alternate names their documents DIR/new-I.json) are 30%
# slower in ab/changing.
cat >"$work/ab_suite.sh" <<SUITE
#!/usr/bin/env bash
case "\$*" in *--bench-json=*/new-[0-9]*.json*) export GLINT_FIXTURE_SLOWER=30 ;; esac
exec "$fixture" "\$@"
SUITE
chmod +x "$work/ab_suite.sh"

pairs=2
GLINT_AA_BENCH="$work/ab_suite.sh" GLINT_AA_COMPARE="$compare" \
    bash "$aa" "$pairs" 3 4 --bench-min-time=0.05 >"$work/ab.out" 2>"$work/ab.err"
status=$?
cat "$work/ab.out"
[[ $status -eq 1 ]] || fail "aa.sh exited $status with a row 30% slower, expected 1 (see $work/ab.err)"
named=$(grep -c '^pair [0-9]*: .*flagged: .*ab/changing' "$work/ab.out")
[[ $named -eq $pairs ]] || fail "ab/changing named flagged in $named of $pairs comparisons"
total=$(sed -n 's/^A\/A: \([0-9]*\) of \([0-9]*\) rows flagged.*/\1 \2/p' "$work/ab.out")
read -r flagged compared <<<"$total"
[[ ${compared:-0} -eq $((4 * pairs)) ]] || fail "compared '$compared' rows, expected $((4 * pairs)) (4 rows a comparison)"
[[ ${flagged:-0} -ge $pairs ]] || fail "counted '$flagged' flagged rows, expected at least $pairs"
grep -q '^A/A: FAILED: more than 1 row in 20 flagged' "$work/ab.out" || fail "no FAILED line"
# Each pair is gated at 10%: a row 30% slower never passes it (failed, or not judged).
gated=$(grep -c '^pair [0-9]*: .*; gate: \(FAILED\|could not judge\)' "$work/ab.out")
[[ $gated -eq $pairs ]] || fail "the gate did not fail or abstain in $((pairs - gated)) of $pairs pairs"
grep -q "^gate --fail-if-slower=10: 0 passed, [0-9]* failed, [0-9]* could not judge, of $pairs pairs" "$work/ab.out" ||
    fail "no gate count line"

# A suite that fails is an error of the script (2), never a measurement.
GLINT_AA_BENCH=false GLINT_AA_COMPARE="$compare" bash "$aa" 1 1 4 >/dev/null 2>&1
status=$?
[[ $status -eq 2 ]] || fail "aa.sh exited $status when the suite failed, expected 2"
echo "aa: ok"
