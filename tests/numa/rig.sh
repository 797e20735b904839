#!/usr/bin/env bash
# tests/numa/rig.sh: glint's NUMA placement, proven in a Linux guest with two NUMA nodes under
# QEMU (docs/rigs.md, rig 4). The pieces every guest rig shares are tests/rigs/.
#
#   rig.sh SOURCE_DIR WORK_DIR INIT TESTS FIXTURE
#
# INIT, TESTS and FIXTURE are the static guest programs the normal build makes
# (tests/numa/tests.cmake): the shared /init (tests/rigs/guest_init.cpp), the guest tests
# (tests/numa/numa_guest_test.cpp) and the e2e noise fixture (tests/e2e/fixtures/noise.cpp).
#
# 1. installs what it needs (qemu-system-x86, cpio) when missing;
# 2. fetches Debian's amd64 kernel (linux-image-<abi>-amd64-unsigned, apt-get download) into a
#    cache kept between runs: $GLINT_AMD64_CACHE, default /work/cache/amd64, or WORK_DIR/cache
#    when that is not writable;
# 3. packs an initramfs of the three programs, /init running the guest tests;
# 4. boots qemu-system-x86_64 -smp 2 -m 1G with two NUMA nodes (CPU 0 and 512 MiB on node 0,
#    CPU 1 and 512 MiB on node 1), with KVM when the host offers hardware virtualisation (vmx
#    or svm, and /dev/kvm), else TCG; GLINT_NUMA_ACCEL=kvm|tcg forces one;
# 5. passes only when the boot printed "GLINT-GUEST-RESULT numa: PASS" on its console.
#
# Exit status: 0 pass, 1 fail. 77 (ctest's SKIP) only outside CI, when the tools cannot be
# installed here; with CI set, that is a failure too. Only x86-64 hosts build this guest.
set -uo pipefail

if [[ $# -ne 5 ]]; then
    echo "usage: $0 SOURCE_DIR WORK_DIR INIT TESTS FIXTURE" >&2
    exit 2
fi
SOURCE_DIR=$(cd "$1" && pwd)
WORK_DIR=$2
mkdir -p "$WORK_DIR" && WORK_DIR=$(cd "$WORK_DIR" && pwd)
BOOT_TIMEOUT=${GLINT_RIG_BOOT_TIMEOUT:-300}
# shellcheck source=../rigs/rig_lib.sh
source "$SOURCE_DIR/tests/rigs/rig_lib.sh"

[[ $(uname -m) == x86_64 ]] || rig_cannot_run "the NUMA guest is an x86-64 guest built natively: this host is $(uname -m)"

# ---- 1. tools ------------------------------------------------------------------------------
rig_need qemu-system-x86_64:qemu-system-x86 cpio:cpio

# ---- 2. the kernel, cached -------------------------------------------------------------------
rig_cache_dir "${GLINT_AMD64_CACHE:-/work/cache/amd64}"
rig_debian_kernel "$RIG_CACHE" amd64
KERNEL=$RIG_KERNEL
rig_say "kernel: $KERNEL"

# ---- 3. initramfs -------------------------------------------------------------------------------
ROOT="$WORK_DIR/initramfs"
rm -rf "$ROOT" && mkdir -p "$ROOT"/{bin,dev,proc,sys,tmp,etc/glint}
install -m 755 "$3" "$ROOT/init" || rig_fail "no guest /init at $3 (build the glint_numa_init target)"
install -m 755 "$4" "$ROOT/bin/glint_numa_guest_tests" || rig_fail "no guest tests at $4"
install -m 755 "$5" "$ROOT/bin/glint_fixture_noise" || rig_fail "no fixture at $5"
strip "$ROOT/init" "$ROOT"/bin/*
echo "/bin/glint_numa_guest_tests --no-colors=true --duration=true" >"$ROOT/etc/glint/programs"
INITRAMFS="$WORK_DIR/initramfs.cpio"
rig_initramfs "$ROOT" "$INITRAMFS"

# ---- 4. boot ------------------------------------------------------------------------------------
accel=${GLINT_NUMA_ACCEL:-}
if [[ -z $accel ]]; then
    accel=tcg
    # /dev/kvm alone is not enough: a nested guest without vmx/svm hangs after the BIOS.
    if [[ -r /dev/kvm && -w /dev/kvm ]] && grep -qwE 'vmx|svm' /proc/cpuinfo; then accel=kvm; fi
fi
cpu_model=max
[[ $accel == kvm ]] && cpu_model=host
rig_say "booting with $accel (-cpu $cpu_model), two NUMA nodes (console: $WORK_DIR/console-numa.log)"
: >"$WORK_DIR/measurements.txt"
status=0
rig_boot numa "$WORK_DIR/console-numa.log" "$BOOT_TIMEOUT" \
    qemu-system-x86_64 -accel "$accel" -cpu "$cpu_model" -smp 2 -m 1G \
    -object memory-backend-ram,id=m0,size=512M -object memory-backend-ram,id=m1,size=512M \
    -numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1 \
    -nographic -nic none -no-reboot -kernel "$KERNEL" -initrd "$INITRAMFS" \
    -append "console=ttyS0 quiet panic=-1 glint.tag=numa" || status=1

rig_say "measurements:"
sed -e 's/^glint-measure: /  /' "$WORK_DIR/measurements.txt"
if [[ $status -eq 0 ]]; then rig_say "PASS"; else rig_say "FAIL"; fi
exit $status
