#!/usr/bin/env bash
# bench/load.sh: do glint's medians hold beside a competing process (issue 24)? The shipped suite
# runs idle, then with a busy loop pinned to the CPU the measuring thread is pinned to (--pin=CPU:
# the two share it, ~50% each), in interleaved rounds (idle, loaded, idle, loaded, ...); Google
# Benchmark runs the same kernels (bench/kernels.hpp) pinned to that CPU in the same rounds. Per
# row: the medians across rounds, loaded/idle for both tools, whether glint's loaded median is
# within 3% of idle, and in how many loaded rounds glint's printed ± covered the idle median.
# Exit status 0 when >= 90% of rows are within 3% and >= 90% covered, 1 when not (the table is
# printed either way), 2 on a setup error. docs/load-bench.md says more.
#
#   bash bench/load.sh [--tiny] [--rounds=N] [--cpu=CPU] [suite flags...]
set -euo pipefail
for v in GLINT_LOAD_BENCH GLINT_LOAD_GB; do  # a relative program path names one from here
  if [[ -n ${!v:-} && ${!v} != /* && -e ${!v} ]]; then printf -v "$v" '%s' "$PWD/${!v}"; fi
done
cd "$(dirname "$0")/.."
usage() { sed -n '11p' "$0" | sed 's/^#  */usage: /'; exit 0; }
die() { echo "load: $*" >&2; exit 2; }

tiny=0 rounds="" cpu="" suite=()
for arg in "$@"; do
  case $arg in
    --tiny) tiny=1 ;;
    --rounds=*) rounds=${arg#*=} ;;
    --cpu=*) cpu=${arg#*=} ;;
    -h|--help) usage ;;
    *) suite+=("$arg") ;;
  esac
done
# --tiny checks the script, not glint: two rows, short samples, one round of each.
if ((tiny)); then
  rounds=${rounds:-1}
  suite=(--filter=add_chain,hash/64B --bench-min-time=1 "${suite[@]}")
  gb_flags=(--benchmark_min_time=0.01)
else
  rounds=${rounds:-5}
  gb_flags=()
fi
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds=$rounds: a positive count"
command -v jq >/dev/null || die "needs jq (third_party/setup-debian.sh installs it)"
command -v taskset >/dev/null || die "needs taskset (util-linux)"
# The CPU both tools and the competitor share: the last one this process may run on.
if [[ -z $cpu ]]; then
  cpu=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | tr ',' '\n' | tail -1)
  cpu=${cpu##*-}
fi
[[ $cpu =~ ^[0-9]+$ ]] || die "--cpu=$cpu: a CPU number"

# GLINT_LOAD_BENCH=PROGRAM (the suite) and GLINT_LOAD_GB=PROGRAM (Google Benchmark's side, or
# "none") use those programs and build nothing; otherwise both are built in build/.
bench=${GLINT_LOAD_BENCH:-./build/bench/glint_bench}
gb=${GLINT_LOAD_GB:-./build/bench/glint_load_google_benchmark}
if [[ -z ${GLINT_LOAD_BENCH:-} ]]; then
  [[ -d build ]] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null || die "cmake failed"
  targets=(glint_bench)
  if [[ -z ${GLINT_LOAD_GB:-} ]]; then
    if [[ $(cmake --build build --target help) == *glint_load_google_benchmark* ]]; then
      targets+=(glint_load_google_benchmark)
    else
      gb=none  # Google Benchmark is not installed: its columns read —
    fi
  fi
  cmake --build build -j"$(nproc)" --target "${targets[@]}" >/dev/null || die "the build failed"
fi
[[ -x $bench ]] || command -v "$bench" >/dev/null || die "no suite program $bench"
[[ $gb == none || -x $gb ]] || die "no Google Benchmark program $gb (GLINT_LOAD_GB=none runs without it)"

work=$(mktemp -d)
competitor=""
stop_competitor() {
  if [[ -n $competitor ]]; then
    kill "$competitor" 2>/dev/null || true
    wait "$competitor" 2>/dev/null || true
    competitor=""
  fi
}
# GLINT_LOAD_KEEP=DIR keeps every run's JSON there (DIR/glint-idle-1.json, DIR/gb-loaded-2.json, ...).
keep_runs() { if [[ -n ${GLINT_LOAD_KEEP:-} ]]; then mkdir -p "$GLINT_LOAD_KEEP" && cp "$work"/*.json "$GLINT_LOAD_KEEP"/ 2>/dev/null; fi; }
trap 'stop_competitor; keep_runs; rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

start_competitor() {
  taskset -c "$cpu" sh -c 'while :; do :; done' &
  competitor=$!
  echo "load: competitor pid $competitor busy on CPU $cpu"
  sleep 0.2
  kill -0 "$competitor" 2>/dev/null || die "the competitor did not start on CPU $cpu"
}

# One tool's run in one phase; a run that fails is a setup error (its stderr is shown).
run_glint() {  # phase round
  local out="$work/glint-$1-$2.json"
  "$bench" --bench --pin="$cpu" --bench-json="$out" "${suite[@]}" >/dev/null 2>"$work/err" ||
    { cat "$work/err" >&2; die "the suite failed ($1 round $2): $bench"; }
  jq -e '.rows | length > 0' "$out" >/dev/null 2>&1 || die "no rows in $out ($1 round $2)"
}
# The filter of Google Benchmark's run: the rows both programs have, each name matched exactly
# (its regex's special characters in brackets, "memcpy[[]size=4KiB[]]"); none in common: no run.
gb_rows() {
  [[ $gb == none ]] && return 0
  "$gb" --benchmark_list_tests >"$work/gb-names" 2>"$work/err" ||
    { cat "$work/err" >&2; die "Google Benchmark cannot list its benchmarks: $gb"; }
  gb_filter=$(jq -r "$keydef"' .rows[] | key' "$work/glint-idle-1.json" |
              { grep -Fxf "$work/gb-names" || true; } | sed 's/[]*+?$(){}|.[]/[&]/g' | paste -sd'|') ||
    die "Google Benchmark's filter could not be made"
  if [[ -n $gb_filter ]]; then gb_filter="^($gb_filter)\$"; fi
}
run_gb() {  # phase round
  [[ $gb == none || -z $gb_filter ]] && return 0
  local out="$work/gb-$1-$2.json"
  taskset -c "$cpu" "$gb" --benchmark_filter="$gb_filter" --benchmark_out="$out" \
    --benchmark_out_format=json "${gb_flags[@]}" >/dev/null 2>"$work/err" ||
    { cat "$work/err" >&2; die "Google Benchmark failed ($1 round $2): $gb"; }
  jq -e '[.benchmarks[]? | select(.run_type == "iteration")] | length > 0' "$out" >/dev/null 2>&1 ||
    { cat "$work/err" >&2; die "Google Benchmark measured nothing ($1 round $2): $gb"; }
}

# A row's key: its name, then its labels in brackets (Google Benchmark's names are these keys).
keydef='def key: .name + (if (.labels // {} | length) > 0
          then "[" + (.labels | to_entries | map("\(.key)=\(.value)") | join(",")) + "]" else "" end);'
load_avg=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "—")
echo "load: CPU $cpu, $rounds round(s) of idle then loaded, load average $load_avg at the start"
if awk -v l="${load_avg%% *}" -v n="$(nproc)" 'BEGIN { exit !(l + 0 >= 0.25 * n) }'; then
  echo "load: warning: other work is running (load average ${load_avg%% *} on $(nproc) CPUs):" \
       "the idle rounds are not idle, so the figures are not the property's"
fi
echo "load: glint: $bench --bench --pin=$cpu ${suite[*]}"
[[ $gb == none ]] && echo "load: Google Benchmark: not built (its columns read —)" ||
  echo "load: Google Benchmark: taskset -c $cpu $gb ${gb_flags[*]}"
gb_filter=""
for ((r = 1; r <= rounds; r++)); do
  for phase in idle loaded; do
    if [[ $phase == loaded ]]; then start_competitor; fi
    run_glint "$phase" "$r"
    if [[ $r$phase == 1idle ]]; then gb_rows; fi  # the rows glint ran (a --filter holds)
    run_gb "$phase" "$r"
    if [[ $phase == loaded ]]; then
      kill -0 "$competitor" 2>/dev/null || die "the competitor died during round $r"
      stop_competitor
    fi
  done
done

# One line per measurement: tool, phase, round, key, median ns, printed ± ns ("null": none).
# glint's ± is the row's spreadNs where the run writes one, else its madNs (what the table prints).
for f in "$work"/glint-*.json; do
  b=${f##*/glint-} b=${b%.json}
  jq -r --arg p "${b%-*}" --arg r "${b##*-}" "$keydef"' .rows[] | ["glint", $p, $r, key,
      (.medianNs // "null"), (if .spreadNs != null then .spreadNs else (.madNs // "null") end)]
      | @tsv' "$f"
done >"$work/lines.tsv"
for f in "$work"/gb-*.json; do
  [[ -s $f ]] || continue
  b=${f##*/gb-} b=${b%.json}
  jq -r --arg p "${b%-*}" --arg r "${b##*-}" '.benchmarks[]? | select(.run_type == "iteration") |
      (if .error_occurred then "null" else .real_time * ({"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[.time_unit]) end) as $ns |
      ["gb", $p, $r, .name, $ns, "null"] | @tsv' "$f"
done >>"$work/lines.tsv"
jq -r "$keydef"' .rows[] | key' "$work/glint-idle-1.json" >"$work/keys"

status=0
awk -F'\t' -v tiny="$tiny" -v rounds="$rounds" -f bench/load_table.awk "$work/keys" "$work/lines.tsv" ||
  status=$?
((status <= 1)) || die "the table could not be made"
# The core's own speed in each round: glint's probes at each run's start and end
# (meta.environment.coreSpeed, docs/load.md "Core speed"): the share of chunks over 10% slower
# than the fastest. A slowed core moves every tool's medians with no competitor at all.
core_share() {  # phase -> the rounds' slow shares, space-separated ("—": not probed)
  local r out=""
  for ((r = 1; r <= rounds; r++)); do
    out+=" $(jq -r '.meta.environment.coreSpeed.slowShare // "—" | if type == "number" then (. * 100 | round | tostring) + "%" else . end' \
      "$work/glint-$1-$r.json")"
  done
  echo "${out# }"
}
idle_share=$(core_share idle)
echo "core speed, share of probe chunks >10% slower than the fastest: idle rounds $idle_share; loaded rounds $(core_share loaded)"
if [[ " $idle_share " =~ \ ([1-9][0-9]+)% ]]; then
  echo "load: the core's speed changed in idle rounds (no competitor): a 3% goal is not judged by this host"
fi
if ((tiny)); then
  echo "load: --tiny: goals not judged (a check of the script, not a measurement)"
  exit 0
fi
exit "$status"
