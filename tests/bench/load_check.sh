#!/usr/bin/env bash
# tests/bench/load_check.sh: bench/load.sh --tiny runs end to end and prints a well-formed table,
# and its competitor never outlives it. Asserts no speed figure (the machine may be busy): the
# table has its header, one row per case glint ran, eleven cells a row, each a time, a ratio, a
# yes/no, a k/n count or —, both tools' cells measured; the summary lines; exit status 0. Then a suite that fails in a
# loaded round is a setup error (exit 2) and that round's competitor is gone afterwards.
#
#   load_check.sh LOAD_SCRIPT SUITE GB_PROGRAM|none WORK_DIR
set -uo pipefail
load=$1 suite=$2 gb=$3 work=$4
fail() { echo "load: FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
gone() { ! kill -0 "$1" 2>/dev/null || ! grep -q . "/proc/$1/cmdline" 2>/dev/null; }

GLINT_LOAD_BENCH="$suite" GLINT_LOAD_GB="$gb" bash "$load" --tiny >"$work/out" 2>"$work/err"
status=$?
cat "$work/out"
[[ $status -eq 0 ]] || fail "load.sh --tiny exited $status, expected 0 (stderr: $(tail -3 "$work/err"))"
header='| row | glint idle | idle max/min | glint loaded | loaded/idle | within 3% | ± covers idle | GB idle | GB idle max/min | GB loaded | GB loaded/idle |'
grep -qxF "$header" "$work/out" || fail "no table header"
grep -qxF '|---|---|---|---|---|---|---|---|---|---|---|' "$work/out" || fail "no header rule"
time='(—|[0-9.e+-]+ (ns|µs|ms))' ratio='(—|[0-9]+\.[0-9]{3})'
cell_re="^\| [^|]+ \| $time \| $ratio \| $time \| $ratio \| (yes|no|—) \| (—|[0-9]+/1) \| $time \| $ratio \| $time \| $ratio \|\$"
rows=$(grep '^| [a-z]' "$work/out" | grep -cvxF "$header")
[[ $rows -eq 2 ]] || fail "$rows rows, expected 2 (add_chain, hash/64B)"
while IFS= read -r line; do
  [[ $line =~ $cell_re ]] || fail "a malformed row: $line"
done < <(grep '^| [a-z]' "$work/out" | grep -vxF "$header")
for row in add_chain hash/64B; do  # both tools measured both rows, idle and loaded
  grep -Eq "^\| $row \| [0-9]" "$work/out" || fail "glint did not measure $row"
  if [[ $gb != none ]]; then
    grep -Eq "^\| $row \|( [^|]+ \|){6} [0-9][^|]* \| [^|]+ \| [0-9][^|]* \| [0-9]" "$work/out" ||
      fail "Google Benchmark did not measure $row"
  fi
done
grep -Eq '^glint: [0-9]+/2 rows within 3% of idle' "$work/out" || fail "no within-3% summary"
grep -Eq '^glint: [0-9]+/2 covered:' "$work/out" || fail "no coverage summary"
grep -Eq "^glint: [0-9]+/2 rows whose loaded median lies within the idle rounds' own range" "$work/out" || fail "no idle-range summary"
grep -Eq '^idle rounds max/min, median over rows: glint .*noise floor' "$work/out" || fail "no noise-floor summary"
grep -Eq '^core speed, share of probe chunks >10% slower than the fastest: idle rounds [0-9]+%; loaded rounds [0-9]+%$' \
  "$work/out" || fail "no measured core speed of each round (meta.environment.coreSpeed)"
grep -q '^load: --tiny: goals not judged' "$work/out" || fail "no --tiny line"
pid=$(sed -n 's/^load: competitor pid \([0-9]*\) .*/\1/p' "$work/out" | tail -1)
[[ -n $pid ]] || fail "the competitor's pid was not printed"
gone "$pid" || fail "the competitor $pid still runs after load.sh exited"

# A suite that fails while the competitor runs: exit 2, and the competitor is killed.
cat >"$work/fails_loaded.sh" <<SUITE
#!/usr/bin/env bash
case "\$*" in *--bench-json=*/glint-loaded-*) exit 1 ;; esac
exec "$suite" "\$@"
SUITE
chmod +x "$work/fails_loaded.sh"
GLINT_LOAD_BENCH="$work/fails_loaded.sh" GLINT_LOAD_GB=none bash "$load" --tiny >"$work/out2" 2>&1
status=$?
[[ $status -eq 2 ]] || fail "load.sh exited $status when the suite failed, expected 2"
pid=$(sed -n 's/^load: competitor pid \([0-9]*\) .*/\1/p' "$work/out2" | tail -1)
[[ -n $pid ]] || fail "no competitor was started before the failing loaded round"
gone "$pid" || fail "the competitor $pid outlived a failed run"
echo "load: ok"
