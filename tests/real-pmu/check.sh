#!/usr/bin/env bash
# tests/real-pmu/check.sh [BUILD_DIR]: the checks this VM cannot run, for a host with a hardware
# PMU (docs/rigs.md, "A host with a real PMU"). In order, each bounded in time:
#   1. is there a PMU? (the kernel's `cpu` event source and an `instructions` counter it opens);
#   2. a Release build of the unit tests and the shipped suites (-j$(nproc), about 4 minutes on
#      16 cores; an existing BUILD_DIR is reused);
#   3. the unit tests that skip for lack of a PMU, run where they can check (skips are listed);
#   4. one table: instructions per iteration of known bodies, by `perf stat` (the difference of
#      two runs, so start-up cancels) and by glint's user-space read (rdpmc) and read(2).
# Exit status: 0 every check passed, 1 a check failed, 2 set-up failed (no compiler, no perf),
# 3 no hardware PMU here (what this VM reports) — distinct, so a wrapper can tell "not here".
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build-real-pmu}
say() { echo "real-pmu: $*"; }
# ---- 1. a PMU? --------------------------------------------------------------------------------
pmu=""
for d in /sys/bus/event_source/devices/cpu /sys/bus/event_source/devices/cpu_core \
         /sys/bus/event_source/devices/armv8_pmuv3*; do
    [[ -e $d ]] && { pmu=$d; break; }
done
if [[ -z $pmu ]]; then
    say "no hardware PMU on this host: /sys/bus/event_source/devices has no cpu, cpu_core or"
    say "armv8_pmuv3 source (a VM that exposes none); nothing to check here (exit 3)"
    exit 3
fi
command -v perf >/dev/null || { say "perf is missing: apt-get install -y linux-perf"; exit 2; }
if ! perf stat -x, -e instructions:u true >/dev/null 2>&1; then
    say "the kernel refuses an instructions counter (perf_event_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)):"
    say "run as root or sysctl kernel.perf_event_paranoid=1 (exit 3)"
    exit 3
fi
say "PMU: $pmu ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'))"
# ---- 2. build ---------------------------------------------------------------------------------
start=$SECONDS
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >"$build.configure.log" 2>&1 ||
    { say "configure failed: $build.configure.log"; exit 2; }
timeout 600 cmake --build "$build" -j"$(nproc)" --target glint_unit_tests glint_bench \
    glint_instructions >"$build.build.log" 2>&1 || { say "build failed: $build.build.log"; exit 2; }
say "built in $((SECONDS - start)) s"
status=0
# ---- 3. the tests that skip without a PMU -------------------------------------------------------
start=$SECONDS
timeout 300 ctest --test-dir "$build" -R 'unit/' -j"$(nproc)" --timeout 120 >"$build.ctest.log" 2>&1 ||
    { status=1; say "unit tests FAILED: $build.ctest.log"; grep -A30 'tests FAILED' "$build.ctest.log"; }
say "unit tests: $(grep -E 'tests passed' "$build.ctest.log") ($((SECONDS - start)) s)"
grep -E '\(Skipped\)' "$build.ctest.log" | sed 's/^/real-pmu: still skipped: /'
# ---- 4. known bodies: perf stat against glint's two read paths ----------------------------------
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A loop of exactly 5 instructions a pass (three adds, dec, jnz), N passes from argv.
cat >"$work/loop.cpp" <<'SRC'
#include <cstdint>
#include <cstdlib>
int main(int argc, char** argv) {
    std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 0;
    asm volatile("test %0, %0\n\tjz 2f\n1:\n\tadd $1, %%rax\n\tadd $2, %%rax\n\tadd $3, %%rax\n\t"
                 "dec %0\n\tjnz 1b\n2:" : "+r"(n) : : "rax", "cc");
    return 0;
}
SRC
g++ -O2 -o "$work/loop" "$work/loop.cpp" || { say "cannot build the known loop"; exit 2; }
instr_of() { perf stat -x, -e instructions:u "$work/loop" "$1" 2>&1 >/dev/null | cut -d, -f1; }
a=$(instr_of 1000000) b=$(instr_of 2000000)
perf_per=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", (b - a) / 1000000 }')
# glint: the shipped asm suite's add latency (one add per iteration by the difference method),
# read both ways side by side.
timeout 120 "$build/bench/glint_instructions" --bench --perf --perf-read=compare \
    --filter='latency/add' --bench-json="$work/asm.json" >"$work/asm.log" 2>&1 ||
    { status=1; say "glint_instructions --perf --perf-read=compare failed:"; tail -20 "$work/asm.log"; }
cell() { jq -r --arg m "$1" '.rows[0].metrics[$m] // empty' "$work/asm.json" 2>/dev/null; }
rd=$(cell 'instr@rdpmc') sy=$(cell 'instr@syscall')
printf '\n%-34s %12s %12s %12s\n' "body" "perf stat" "glint rdpmc" "glint read"
printf '%-34s %12s %12s %12s\n' "loop of 5 (per pass)" "$perf_per" "—" "—"
printf '%-34s %12s %12s %12s\n' "add latency (per instruction)" "—" "${rd:-null}" "${sy:-null}"
printf '\n'
within() { awk -v x="$1" -v want="$2" -v tol="$3" 'BEGIN { exit !(x != "" && x - want <= tol && want - x <= tol) }'; }
within "$perf_per" 5 0.05 || { status=1; say "perf stat read $perf_per instructions a pass, not 5"; }
within "${rd:-}" 1 0.02 || { status=1; say "glint's rdpmc read ${rd:-null} instructions per add, not 1"; }
within "${sy:-}" 1 0.02 || { status=1; say "glint's read(2) path read ${sy:-null} instructions per add, not 1"; }
((status == 0)) && say "every check passed" || say "a check FAILED (exit 1)"
exit "$status"
