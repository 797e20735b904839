#!/usr/bin/env bash
# bench/asm_vs_rdtscp.sh: does an instruction-level row's add-cycles agree with a plain rdtscp
# reference (issue 46)? Each run times glint_instructions' latency rows of add, imul, crc32,
# lzcnt and shld on CPU 0 (--pin=0), and glint_rdtscp_chains (bench/rdtscp_chains.cpp: each
# instruction's dependent chain against a dependent add chain, rdtscp around each, outside
# glint) on the same CPU right before it; the row's add-cycles / the reference's ratio is
# printed per run, beside what the add timed once at the run's start (the header's provenance,
# 3 digits) made of the row, as add-cycles read before issue 46. `runs` runs idle, then `runs`
# beside a busy loop pinned to CPU 1. Summary: per instruction and mode, the ratio's median, min
# and max over the runs and how many runs were within 2% (and how many at-start ones were). Exit
# 0 when all were, 1 when not (the table is printed either way), 2 on a setup error. An
# instruction this CPU lacks is skipped with the reason. docs/asm.md has figures.
#
#   bash bench/asm_vs_rdtscp.sh [--runs=N] [--build=DIR] [--tiny] [suite flags...]
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "asm_vs_rdtscp: $*" >&2; exit 2; }

runs=10 build=build tiny=0 suite=()
for arg in "$@"; do
  case $arg in
    --runs=*) runs=${arg#*=} ;;
    --build=*) build=${arg#*=} ;;
    --tiny) tiny=1 ;;
    -h|--help) sed -n '14p' "$0" | sed 's/^#  */usage: /'; exit 0 ;;
    *) suite+=("$arg") ;;
  esac
done
# --tiny checks the script, not glint: one run of each mode, short samples.
if ((tiny)); then runs=1; suite=(--bench-min-time=0.05 "${suite[@]}"); fi
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs=$runs: a positive count"
glint=$build/bench/glint_instructions ref=$build/bench/glint_rdtscp_chains
[[ -x $glint && -x $ref ]] || die "build $glint and $ref first (cmake --build $build)"
command -v jq >/dev/null || die "needs jq (third_party/setup-debian.sh installs it)"
command -v taskset >/dev/null || die "needs taskset (util-linux)"
(($(nproc) >= 2)) || die "needs 2 CPUs: it measures on CPU 0 beside a busy loop on CPU 1"

flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
insns=()
for i in add imul crc32 lzcnt shld; do
  case $i in
    crc32) grep -qw sse4_2 <<<"$flags" || { echo "crc32 skipped: this CPU has no SSE4.2"; continue; } ;;
    lzcnt) grep -qw abm <<<"$flags" ||
      { echo "lzcnt skipped: this CPU has no LZCNT (abm): its encoding would run as bsr"; continue; } ;;
  esac
  insns+=("$i")
done
filter=$(printf 'latency/%s,' "${insns[@]}")
filter=${filter%,}

out=$(mktemp -d)
busy=""
stop_busy() { if [[ -n $busy ]]; then kill "$busy" 2>/dev/null || true; wait "$busy" 2>/dev/null || true; busy=""; fi; }
trap 'stop_busy; rm -rf "$out"' EXIT

echo "mode run instruction add-cycles rdtscp ratio at-start-ratio"
for mode in idle busy; do
  if [[ $mode == busy ]]; then
    taskset -c 1 sh -c 'while :; do :; done' &
    busy=$!
  fi
  for ((r = 1; r <= runs; r++)); do
    taskset -c 0 "$ref" "${insns[@]}" >"$out/ref" || die "$ref failed"
    "$glint" --bench --pin=0 --filter="$filter" --bench-json="$out/run.json" "${suite[@]}" \
      >"$out/table" 2>&1 || { cat "$out/table" >&2; die "$glint failed"; }
    start=$(jq -r '.meta.provenance[] | select(startswith("asm: add-cycles"))' "$out/run.json" |
      sed -n 's/.* = \([0-9.]*\) ns,.*/\1/p')
    [[ -n $start ]] || die "no add timed at start in the header's provenance"
    for i in "${insns[@]}"; do
      want=$(awk -v i="$i" '$1 == i { print $2 }' "$out/ref")
      row=$(jq -r --arg n "latency/$i" '.rows[] | select(.name == $n) |
        "\(.metrics["add-cycles"] // "null") \(.medianNs)"' "$out/run.json")
      read -r got ns <<<"$row"
      [[ $got != null && -n $want ]] || die "no add-cycles or reference for $i (a usable TSC is needed)"
      awk -v m="$mode" -v r="$r" -v i="$i" -v g="$got" -v w="$want" -v ns="$ns" -v s="$start" \
        'BEGIN { printf "%s %d %s %.4f %.4f %.4f %.4f\n", m, r, i, g, w, g / w, ns / s / w }' |
        tee -a "$out/all"
    done
  done
  stop_busy
done

echo
echo "summary: add-cycles / rdtscp reference, $runs runs a mode (CPU 0; busy: a loop on CPU 1)"
sort -k1,1 -k3,3 -k6,6g "$out/all" | awk '
  function flush() {
    if (n == 0) return
    printf "%-5s %-6s median %.4f  min %.4f  max %.4f  within 2%%: %d/%d (at start: %d/%d)\n",
           key_m, key_i, v[int((n + 1) / 2)], v[1], v[n], ok, n, ok_start, n
    all_ok = all_ok && ok == n
    n = 0; ok = 0; ok_start = 0
  }
  BEGIN { all_ok = 1 }
  { if ($1 != key_m || $3 != key_i) { flush(); key_m = $1; key_i = $3 }
    v[++n] = $6; if ($6 >= 0.98 && $6 <= 1.02) ok++
    if ($7 >= 0.98 && $7 <= 1.02) ok_start++ }
  END { flush(); exit all_ok ? 0 : 1 }'
