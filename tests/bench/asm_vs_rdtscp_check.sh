#!/usr/bin/env bash
# tests/bench/asm_vs_rdtscp_check.sh: bench/asm_vs_rdtscp.sh --tiny runs end to end and prints
# well-formed lines. Asserts no figure (the machine may be busy): exit 0 or 1 (1: a ratio
# outside 2%, a figure), one line per instruction and mode with four-decimal cells, and a summary
# line per instruction and mode. Skipped (77) with fewer than 2 CPUs or without taskset.
#
#   asm_vs_rdtscp_check.sh SCRIPT BUILD_DIR WORK_DIR
set -uo pipefail
script=$1 build=$2 work=$3
fail() { echo "asm_vs_rdtscp: FAIL: $*" >&2; exit 1; }
if (($(nproc) < 2)) || ! command -v taskset >/dev/null; then
  echo "asm_vs_rdtscp: skipped: needs 2 CPUs and taskset"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
bash "$script" --tiny --build="$build" >"$work/out" 2>"$work/err"
status=$?
cat "$work/out"
[[ $status -le 1 ]] || fail "--tiny exited $status (stderr: $(tail -3 "$work/err"))"
grep -qxF 'mode run instruction add-cycles rdtscp ratio at-start-ratio' "$work/out" ||
  fail "no header line"
n=$(grep -c 'skipped:' "$work/out")
want=$(((5 - n) * 2))  # each instruction the CPU has, idle and busy
cell='[0-9]+\.[0-9]{4}'
rows=$(grep -Ec "^(idle|busy) 1 (add|imul|crc32|lzcnt|shld) $cell $cell $cell $cell\$" "$work/out")
[[ $rows -eq $want ]] || fail "$rows measured lines, expected $want"
sums=$(grep -Ec "^(idle|busy) +[a-z0-9]+ +median $cell  min $cell  max $cell  within 2%: [01]/1 \(at start: [01]/1\)\$" "$work/out")
[[ $sums -eq $want ]] || fail "$sums summary lines, expected $want"
echo "asm_vs_rdtscp: --tiny well formed ($rows lines)"
