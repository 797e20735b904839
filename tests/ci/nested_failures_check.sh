#!/usr/bin/env bash
# Usage: nested_failures_check.sh NESTED_FAILURES_SH WORK_DIR
# Plants ctest records in WORK_DIR: a tree whose test failed twice (its last run's output must
# be printed, the earlier run's not), a test that passed, and a stale tree older than the stamp
# (never reported). Fails naming what nested-failures.sh got wrong.
set -uo pipefail
script=$1 work=$2
fail() { echo "FAILED: $*"; echo "--- output:"; cat "$work/out"; exit 1; }
rm -rf "$work" && mkdir -p "$work/build/sanitize/Testing/Temporary" "$work/build/stale/Testing/Temporary"
echo "12:old/failure" >"$work/build/stale/Testing/Temporary/LastTestsFailed.log"
sleep 1.1  # file times: the stale record must be older than the stamp at this clock's resolution
stamp="$work/stamp" && touch "$stamp" && sleep 1.1
tmp="$work/build/sanitize/Testing/Temporary"
echo "7:e2e/a flaky (check)" >"$tmp/LastTestsFailed.log"
cat >"$tmp/LastTest.log" <<'LOG'
7/9 Testing: e2e/a flaky (check)
7/9 Test: e2e/a flaky (check)
Output:
----------------------------------------------------------
first run: not this one
<end of output>
8/9 Test: e2e/a passing test
Output:
----------------------------------------------------------
passing output
<end of output>
7/9 Test: e2e/a flaky (check)
Output:
----------------------------------------------------------
ERROR: CHECK( r.exit_code == 1 ) is NOT correct!
  values: CHECK( 0 == 1 )
<end of output>
LOG
bash "$script" "$work/build" "$stamp" >"$work/out" 2>&1 || fail "exited $?"
grep -qx "failed inside the nested tree $work/build/sanitize:" "$work/out" || fail "the tree is not named"
grep -qx "  e2e/a flaky (check)" "$work/out" || fail "the failed test is not named"
grep -qx "    ERROR: CHECK( r.exit_code == 1 ) is NOT correct!" "$work/out" || fail "its last run's output is missing"
grep -q "first run" "$work/out" && fail "an earlier run's output is printed"
grep -q "passing output" "$work/out" && fail "a passing test's output is printed"
grep -q "old/failure" "$work/out" && fail "a stale tree's record is reported"
echo "nested-failures: ok"
