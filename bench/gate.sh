#!/usr/bin/env bash
# bench/gate.sh: does the CI gate hold on a shared machine (issue 41)? The gate suite
# (bench/gate_suite.cpp: 14 rows of every kind) is built as A and as B, where three rows do
# 15-25% more work (bench/gate_kernels.hpp). GATES times per condition, it gates A against A
# and A against B with the one-command recipe,
#   glint-compare --alternate=RUNS --fail-if-slower=10 A B -- --pin=auto [suite flags]
# under three conditions: idle; ambient (compilers looping unpinned on the other CPUs, as on a
# shared CI runner); pinned (a busy loop pinned on the measuring CPU, the runs pinned there too).
# Google Benchmark runs the same kernels (bench/gate_google_benchmark.cpp), RUNS alternated runs
# a side of --benchmark_repetitions=3, judged by its own tools/compare.py (Mann-Whitney U,
# alpha 0.05): a row fails when p < 0.05 and its time rose by more than 10%.
# Per condition and tool it prints A/A exits 0/1/3, unchanged rows failed, A/B exits, changed
# rows caught, unchanged rows blamed and the wall time per gate. docs/comparing.md says more.
#
#   bash bench/gate.sh [--gates=N] [--runs=K] [--conditions=idle,ambient,pinned] [--cpu=CPU]
#                      [--compare-py=PATH] [--no-gbench] [suite flags...]
set -euo pipefail
here=$PWD
cd "$(dirname "$0")/.."
die() { echo "gate: $*" >&2; exit 2; }

gates=20 runs=8 conditions=idle,ambient,pinned cpu="" compare_py=${GLINT_GATE_COMPARE_PY:-}
# Debian's libbenchmark-tools installs Google Benchmark's compare.py here (setup-debian.sh).
[[ -z $compare_py && -f /usr/share/benchmark/compare.py ]] && compare_py=/usr/share/benchmark/compare.py
python=${GLINT_GATE_PYTHON:-python3}  # the python3 that has numpy and scipy (compare.py's)
gbench=1 suite=()
for arg in "$@"; do
  case $arg in
    --gates=*) gates=${arg#*=} ;;
    --runs=*) runs=${arg#*=} ;;
    --conditions=*) conditions=${arg#*=} ;;
    --cpu=*) cpu=${arg#*=} ;;
    --compare-py=*) compare_py=${arg#*=} ;;
    --no-gbench) gbench=0 ;;
    -h|--help) sed -n '15,16p' "$0" | sed 's/^#  *//'; exit 0 ;;
    *) suite+=("$arg") ;;
  esac
done
[[ $gates =~ ^[1-9][0-9]*$ ]] || die "--gates=$gates: a positive count"
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs=$runs: a positive count"
command -v jq >/dev/null || die "needs jq (third_party/setup-debian.sh installs it)"
command -v taskset >/dev/null || die "needs taskset (util-linux)"
if [[ -z $cpu ]]; then  # the last CPU this process may run on
  cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | tr ',' '\n' | tail -1)
  cpu=${cpu##*-}
fi
[[ $cpu =~ ^[0-9]+$ ]] || die "--cpu=$cpu: a CPU number"
abs() { [[ -z $1 || $1 == /* ]] && echo "$1" || echo "$here/$1"; }

# GLINT_GATE_A, _B (glint's suite), GLINT_GATE_COMPARE (glint-compare), GLINT_GATE_GB_A, _GB_B
# (Google Benchmark's) name programs and build nothing; otherwise they are built in build/.
a=$(abs "${GLINT_GATE_A:-}") b=$(abs "${GLINT_GATE_B:-}") compare=$(abs "${GLINT_GATE_COMPARE:-}")
gb_a=$(abs "${GLINT_GATE_GB_A:-}") gb_b=$(abs "${GLINT_GATE_GB_B:-}")
if [[ -z $a || -z $b || -z $compare ]]; then
  [[ -d build ]] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null || die "cmake failed"
  targets=(glint_gate_a glint_gate_b glint-compare)
  if ((gbench)) && [[ -z $gb_a && $(cmake --build build --target help) == *glint_gate_gbench_a* ]]; then
    targets+=(glint_gate_gbench_a glint_gate_gbench_b)
    gb_a=$PWD/build/bench/glint_gate_gbench_a gb_b=$PWD/build/bench/glint_gate_gbench_b
  fi
  cmake --build build -j"$(nproc)" --target "${targets[@]}" >/dev/null || die "the build failed"
  a=$PWD/build/bench/glint_gate_a b=$PWD/build/bench/glint_gate_b
  compare=$PWD/build/tools/glint-compare
fi
for p in "$a" "$b" "$compare"; do [[ -x $p ]] || die "no program $p"; done
if ((gbench)); then
  if [[ -z $gb_a || -z $gb_b ]]; then
    echo "gate: Google Benchmark's suite is not built (libbenchmark-dev): its lines are left out" >&2
    gbench=0
  elif [[ -z $compare_py ]]; then
    echo "gate: no compare.py (--compare-py=PATH: tools/compare.py of a google/benchmark checkout): Google Benchmark's lines are left out" >&2
    gbench=0
  elif ! "$python" "$compare_py" --help >/dev/null 2>&1; then
    echo "gate: $compare_py does not run (it needs python3 with numpy and scipy): Google Benchmark's lines are left out" >&2
    gbench=0
  fi
fi
# The rows B changes (bench/gate_kernels.hpp: kChangedRows).
changed=$(printf '%s\n' "hash/fnv1a [len=256]" "memcpy [size=4KiB]" "select/branchless")

work=$(mktemp -d)
load_pids=()
stop_load() {
  local p
  for p in "${load_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${load_pids[@]}"; do wait "$p" 2>/dev/null || true; done
  load_pids=()
}
trap 'stop_load; rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

start_load() {
  case $1 in
    idle) ;;
    ambient)  # compilers looping, unpinned, on every CPU but one
      local n=$(($(nproc) - 1)) i
      ((n > 0)) || n=1
      for ((i = 0; i < n; i++)); do
        (while :; do ${CXX:-c++} -std=c++20 -O2 -Iengine/include -c bench/kernels.cpp \
            -o "$work/load$i.o" 2>/dev/null || sleep 1; done) &
        load_pids+=($!)
      done ;;
    pinned)
      taskset -c "$cpu" sh -c 'while :; do :; done' &
      load_pids+=($!) ;;
    *) die "unknown condition '$1' (idle, ambient, pinned)" ;;
  esac
}

# One glint gate of $1 against $2: prints "STATUS SECONDS" and the failing rows, one a line.
glint_gate() {
  local pin=--pin=auto status=0 t0 t1
  [[ $condition == pinned ]] && pin=--pin=$cpu
  t0=$(date +%s.%N)
  "$compare" --alternate="$runs" --fail-if-slower=10 --format=json "$1" "$2" -- "$pin" ${suite[@]+"${suite[@]}"} \
    >"$work/glint.json" 2>"$work/glint.err" || status=$?
  t1=$(date +%s.%N)
  [[ $status == [013] ]] || { cat "$work/glint.err" >&2; die "glint-compare exited $status"; }
  echo "$status $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
  jq -r '.gate.rows[]' "$work/glint.json"
  jq -r '(.gate.unjudged // [])[] | "\(.row): \(.reason)"' "$work/glint.json" >>"$work/unjudged"
}

# One Google Benchmark gate of $1 against $2: RUNS alternated runs a side, compare.py over
# their repetitions; the same output as glint_gate (status 1 when a row failed, else 0).
gbench_gate() {
  local i side prog t0 t1 pin=() status=0
  [[ $condition == pinned ]] && pin=(taskset -c "$cpu")
  t0=$(date +%s.%N)
  for ((i = 1; i <= runs; i++)); do
    for side in base new; do
      prog=$1; [[ $side == new ]] && prog=$2
      "${pin[@]}" "$prog" --benchmark_repetitions=3 --benchmark_out_format=json \
        --benchmark_out="$work/gb-$side-$i.json" ${gb_flags[@]+"${gb_flags[@]}"} >/dev/null 2>"$work/gb.err" ||
        { cat "$work/gb.err" >&2; die "Google Benchmark's $prog failed"; }
    done
  done
  for side in base new; do  # every run's repetitions, as one run of RUNS*3 repetitions
    jq -s '.[0] + {benchmarks: [.[].benchmarks[] | select(.run_type == "iteration")]}' \
      "$work"/gb-"$side"-*.json >"$work/gb-$side.json"
  done
  "$python" "$compare_py" --no-color -d "$work/gb-diff.json" benchmarks \
    "$work/gb-base.json" "$work/gb-new.json" >"$work/gb-compare.txt" 2>&1 ||
    { cat "$work/gb-compare.txt" >&2; die "compare.py failed"; }
  t1=$(date +%s.%N)
  jq -r '.[] | select(.utest.time_pvalue != null and .utest.time_pvalue < 0.05
                      and .measurements[0].time > 0.10) | .name | sub("/threads:[0-9]+$"; "")' \
    "$work/gb-diff.json" >"$work/gb-failed"
  [[ -s $work/gb-failed ]] && status=1
  echo "$status $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
  cat "$work/gb-failed"
}
# GLINT_GATE_GB_FLAGS: more flags for every Google Benchmark run (e.g. --benchmark_min_time=0.05s).
read -r -a gb_flags <<<"${GLINT_GATE_GB_FLAGS:-}"

# Runs GATES A/A and A/B gates of one tool under the current condition; prints its line.
measure() {
  local tool=$1 gate=${1}_gate i out status secs rows
  local aa0=0 aa1=0 aa3=0 ab0=0 ab1=0 ab3=0 aa_failed=0 caught=0 all_caught=0 blamed=0 times=()
  local aa_names="" aa_unjudged="" blamed_names=""
  for ((i = 1; i <= gates; i++)); do
    : >"$work/unjudged"
    out=$($gate "$a_prog" "$a_prog")
    read -r status secs <<<"$(head -1 <<<"$out")"
    rows=$(tail -n +2 <<<"$out" | grep -c . || true)
    aa_names+=$(tail -n +2 <<<"$out" | sed 's/^/, /' | tr -d '\n')
    aa_unjudged+=$(sed 's/^/; /' "$work/unjudged" | tr -d '\n')
    eval "aa$status=\$((aa$status + 1))"
    aa_failed=$((aa_failed + rows))
    times+=("$secs")
    out=$($gate "$a_prog" "$b_prog")
    read -r status secs <<<"$(head -1 <<<"$out")"
    eval "ab$status=\$((ab$status + 1))"
    local hit=0 row
    while IFS= read -r row; do
      [[ -z $row ]] && continue
      if grep -qxF -- "$row" <<<"$changed"; then
        hit=$((hit + 1))
      else
        blamed=$((blamed + 1)) blamed_names+=", $row"
      fi
    done < <(tail -n +2 <<<"$out")
    caught=$((caught + hit))
    ((hit == $(grep -c . <<<"$changed"))) && all_caught=$((all_caught + 1))
    times+=("$secs")
  done
  local wall
  wall=$(printf '%s\n' "${times[@]}" | sort -n | awk '{ v[NR] = $1 } END {
    printf "%.1f s median (%.1f-%.1f)", v[int((NR + 1) / 2)], v[1], v[NR] }')
  printf '%-8s %-7s A/A exits 0/1/3: %d/%d/%d of %d, unchanged rows failed: %d | A/B exits 0/1/3: %d/%d/%d, changed rows caught: %d of %d (all %d in %d of %d gates), unchanged rows blamed: %d | wall per gate: %s\n' \
    "$condition" "$tool" "$aa0" "$aa1" "$aa3" "$gates" "$aa_failed" "$ab0" "$ab1" "$ab3" \
    "$caught" "$((gates * $(grep -c . <<<"$changed")))" "$(grep -c . <<<"$changed")" "$all_caught" \
    "$gates" "$blamed" "$wall"
  # Which rows: A/A failures, A/A rows not judged (glint: with the reason), A/B blamed rows.
  [[ -n $aa_names ]] && echo "         A/A failed: ${aa_names#, }"
  [[ -n $aa_unjudged ]] && echo "         A/A not judged: ${aa_unjudged#; }"
  [[ -n $blamed_names ]] && echo "         A/B blamed: ${blamed_names#, }"
  return 0
}

echo "gate: $gates gates of A/A and A/B per condition, $runs runs a side, fail beyond +10%; changed rows: $(paste -sd, <<<"$changed"); CPU $cpu; $(date -u +%Y-%m-%dT%H:%MZ) on $(uname -n)"
IFS=, read -r -a condition_list <<<"$conditions"
for condition in "${condition_list[@]}"; do
  start_load "$condition"
  a_prog=$a b_prog=$b measure glint
  if ((gbench)); then a_prog=$gb_a b_prog=$gb_b measure gbench; fi
  stop_load
done
