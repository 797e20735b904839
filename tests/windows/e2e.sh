#!/usr/bin/env bash
# tests/windows/e2e.sh CHECK: one end-to-end check of the Windows build, run by ctest on the
# Linux host (tests/windows/tests.cmake): the fixtures and glint-compare are .exe files run under
# Wine ($GLINT_WINE: the command that runs a Windows program), judged here with jq.
# Environment: GLINT_WINE, GLINT_EXE_DIR (the fixtures), GLINT_COMPARE (glint-compare.exe),
# GLINT_WORK (a folder of its own for this check). Exit 0: passed; 1: failed, with the reason.
set -uo pipefail
check=$1
read -r -a wine <<<"$GLINT_WINE"
work=$GLINT_WORK
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
exe() { echo "$GLINT_EXE_DIR/glint_fixture_$1.exe"; }
fail() { echo "FAILED: $*"; exit 1; }
run() { "${wine[@]}" "$@"; }
rows() { jq -r '[.rows[].name] | join(",")' "$1"; }

case $check in
bench)  # --bench prints a table with every case of the suite, exit 0
  run "$(exe basic)" --bench --bench-min-time=0.02 --filter='add_chain,whole_body' >out.txt 2>err.txt ||
    fail "exit $?: $(cat err.txt)"
  for name in add_chain whole_body; do grep -q "$name" out.txt || fail "no row $name: $(cat out.txt)"; done
  grep -q 'OS: *Windows\|Windows' out.txt err.txt || fail "the header does not name Windows: $(cat out.txt)"
  ;;
json)  # --bench-json: a document with the rows, medians and the Windows host in its meta
  run "$(exe basic)" --bench --bench-min-time=0.02 --filter='add_chain,whole_body' --bench-json=run.json \
    >out.txt 2>err.txt || fail "exit $?: $(cat err.txt)"
  [ "$(rows run.json)" = "add_chain,whole_body" ] || fail "rows: $(rows run.json)"
  jq -e '[.rows[].medianNs] | all(. > 0)' run.json >/dev/null || fail "a median is not positive"
  jq -e '.. | objects | select(has("os")) | .os == "Windows"' run.json >/dev/null ||
    fail "meta does not name Windows: $(jq -c .meta run.json)"
  ;;
baseline)  # --bench-baseline: a second run compared with the first one's JSON
  run "$(exe basic)" --bench --bench-min-time=0.02 --filter=add_chain --bench-json=base.json >/dev/null 2>&1 ||
    fail "first run failed"
  run "$(exe basic)" --bench --bench-min-time=0.02 --filter=add_chain --bench-baseline=base.json \
    --bench-json=new.json >out.txt 2>err.txt || fail "exit $?: $(cat err.txt)"
  grep -q 'vs base' out.txt || fail "no baseline column: $(cat out.txt)"
  jq -e '.rows[0].metrics | has("base-change")' new.json >/dev/null ||
    fail "the JSON row carries no baseline comparison: $(jq -c '.rows[0].metrics' new.json)"
  ;;
alternate)  # glint-compare --alternate between two .exe files, started with CreateProcess
  cp "$(exe ab)" base.exe && cp "$(exe ab)" new.exe
  run "$GLINT_COMPARE" --alternate=2 --keep=runs ./base.exe ./new.exe -- --bench-min-time=0.05 \
    --filter=ab/steady >out.txt 2>err.txt || fail "exit $?: $(cat out.txt err.txt)"
  for f in base-1 new-1 base-2 new-2; do
    jq -e '.rows | length > 0' "runs/$f.json" >/dev/null || fail "runs/$f.json has no rows"
  done
  grep -q 'ab/steady' out.txt || fail "no compared row: $(cat out.txt)"
  grep -q 'new (2 runs) vs base (2 runs)' out.txt || fail "sides not named: $(cat out.txt)"
  ;;
ctrl-c)  # Ctrl-C (SIGINT, which Wine hands to the console control handlers) keeps finished rows
  # The suite's 10 cases sleep about 0.35 s each: the interrupt comes 1 s after the header.
  # exec: $! is Wine's own process (a subshell would ignore SIGINT, as background jobs do)
  (exec "${wine[@]}" "$(exe slow)" --bench --bench-json=run.json >out.txt 2>err.txt) &
  pid=$!
  for _ in $(seq 600); do grep -q 'protocol:' out.txt 2>/dev/null && break; sleep 0.1; done
  grep -q 'protocol:' out.txt || { kill -9 $pid; fail "no run header within 60 s: $(cat out.txt err.txt)"; }
  sleep 1
  kill -INT $pid
  wait $pid
  status=$?
  [ "$status" -eq 130 ] || fail "an interrupted run exited $status, not 130: $(cat err.txt)"
  kept=$(jq '.rows | length' run.json)
  [ "$kept" -ge 1 ] && [ "$kept" -lt 10 ] || fail "$kept rows kept (1 to 9 expected): $(cat err.txt)"
  grep -q 'SIGINT stopped the run' err.txt || fail "the interruption is not reported: $(cat err.txt)"
  ;;
threads)  # a multi-threaded row: one batch on 2 threads at once
  run "$(exe team_windows)" --bench --bench-min-time=0.02 --bench-json=run.json >out.txt 2>err.txt ||
    fail "exit $?: $(cat err.txt)"
  jq -e '[.rows[] | select(.name | test("team"))] | length >= 2' run.json >/dev/null ||
    fail "no threaded rows: $(rows run.json)"
  ;;
asm)  # instruction-level cases: imul r64, r64 reads 3.00 times add r64, r64 within 5%
  for attempt in 1 2 3; do
    run "$(exe asm_x86_64)" --bench --quiet-environment --filter=asm/add,asm/imul --pin=auto \
      --bench-repeat=3 --bench-json=asm.json >out.txt 2>err.txt || fail "exit $?: $(cat err.txt)"
    ratio=$(jq '([.rows[] | select(.name == "asm/imul") | .medianNs][0]) /
                ([.rows[] | select(.name == "asm/add") | .medianNs][0])' asm.json)
    echo "attempt $attempt: imul/add = $ratio"
    awk -v r="$ratio" 'BEGIN { exit !(r >= 2.85 && r <= 3.15) }' && exit 0
  done
  fail "imul/add read $ratio in 3 runs (3.00 within 5% expected)"
  ;;
capabilities)  # every capability listed with its state (and, below it, the reason)
  run "$(exe basic)" --capabilities >out.txt 2>err.txt || fail "exit $?: $(cat err.txt)"
  cat out.txt
  for name in scalar-counting overflow-sampling precise-data-source symbolization event-space \
              numa-topology event-naming instruction-level thread-coverage simulated-cpu; do
    grep -Eq "^$name +(available|degraded|unavailable|not-built) +[^ ]" out.txt ||
      fail "$name is not listed with a state and a reason"
  done
  grep -Eq '^instruction-level +available' out.txt || fail "asm cases are not available"
  ;;
*) fail "unknown check '$check'" ;;
esac
echo "passed: $check"
