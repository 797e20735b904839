#!/usr/bin/env bash
# tests/real-pmu/no_pmu_check.sh CHECK_SH: on a host without a hardware PMU (this VM), check.sh
# stops before building anything, says so, and exits 3; on a host with one this entry is skipped
# (exit 77: run check.sh itself there).
set -u
check=${1:?usage: no_pmu_check.sh CHECK_SH}
for d in /sys/bus/event_source/devices/cpu /sys/bus/event_source/devices/cpu_core \
         /sys/bus/event_source/devices/armv8_pmuv3*; do
    [[ -e $d ]] && { echo "skip: this host has a PMU ($d): run $check itself"; exit 77; }
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=$(bash "$check" "$scratch/build" 2>&1); rc=$?
echo "$out"
[[ $rc -eq 3 ]] || { echo "FAIL: check.sh exited $rc on a host without a PMU, not 3"; exit 1; }
grep -q "no hardware PMU on this host" <<<"$out" || { echo "FAIL: check.sh did not say why"; exit 1; }
[[ ! -e $scratch/build ]] || { echo "FAIL: check.sh built before finding no PMU"; exit 1; }
echo "real-pmu: without a PMU, check.sh says so and exits 3"
