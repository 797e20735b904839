#!/usr/bin/env bash
# tests/aarch64/rig.sh: glint's arm64 PMU user access, proven in a real arm64 Linux kernel
# under QEMU (docs/rigs.md, rig 3). The pieces every guest rig shares are tests/rigs/.
#
#   rig.sh SOURCE_DIR WORK_DIR
#
# 1. installs what it needs (qemu-system-arm, g++-aarch64-linux-gnu, cpio) when missing;
# 2. fetches Debian's arm64 kernel (linux-image-<abi>-arm64-unsigned:arm64, apt-get download)
#    into a cache kept between runs: $GLINT_AARCH64_CACHE, default /work/cache/aarch64, or
#    WORK_DIR/cache when that is not writable;
# 3. cross-builds tests/aarch64/guest (the glint library and the guest programs, static) with
#    tests/aarch64/toolchain.cmake;
# 4. packs an initramfs whose /init is the shared guest driver (tests/rigs/guest_init.cpp):
#    kernel.perf_user_access=1, then the bench program and the guest tests;
# 5. boots qemu-system-aarch64 -M virt -smp 1 -icount shift=0,sleep=off twice (icount: exact
#    instruction counts; sleep=off: the virtual clock never follows the host's, so runs repeat):
#    -cpu max (64-bit event counters) and -cpu neoverse-n1 (none: the 32-bit fallback); then
#    once more -cpu max -smp 2 for the tests of threads and of work a case starts off its
#    measuring thread (the other tests' figures assume one vCPU: a profile's shares, the
#    syscall path's kernel instructions);
# 6. passes only when every boot printed "GLINT-GUEST-RESULT cpu=<cpu>: PASS" on its console.
#
# Exit status: 0 pass, 1 fail. 77 (ctest's SKIP) only outside CI, when the tools cannot be
# installed here; with CI set, that is a failure too.
set -uo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 SOURCE_DIR WORK_DIR" >&2
    exit 2
fi
SOURCE_DIR=$(cd "$1" && pwd)
WORK_DIR=$2
mkdir -p "$WORK_DIR" && WORK_DIR=$(cd "$WORK_DIR" && pwd)
RIG_DIR="$SOURCE_DIR/tests/aarch64"
BOOT_TIMEOUT=${GLINT_RIG_BOOT_TIMEOUT:-300}
CPUS=(max neoverse-n1)
# shellcheck source=../rigs/rig_lib.sh
source "$SOURCE_DIR/tests/rigs/rig_lib.sh"

# ---- 1. tools ------------------------------------------------------------------------------
rig_need qemu-system-aarch64:qemu-system-arm aarch64-linux-gnu-g++:g++-aarch64-linux-gnu cpio:cpio

# ---- 2. the kernel, cached -------------------------------------------------------------------
rig_cache_dir "${GLINT_AARCH64_CACHE:-/work/cache/aarch64}"
rig_debian_kernel "$RIG_CACHE" arm64
KERNEL=$RIG_KERNEL
rig_say "kernel: $KERNEL"

# ---- 3. cross-build ----------------------------------------------------------------------------
# fmt is used header-only: the host's package config serves the cross build as well. The
# arm64 sources compile file by file (GLINT_UNITY_BUILD=OFF): only the host's are checked as unity.
fmt_config=$(find /usr/lib /usr/share /usr/local/lib -path '*/cmake/fmt/fmt-config.cmake' 2>/dev/null | head -n 1)
[[ -n $fmt_config ]] || rig_cannot_run "fmt's CMake package (libfmt-dev) is not installed"
BUILD_DIR="$WORK_DIR/build"
rig_cmake_build "$RIG_DIR/guest" "$BUILD_DIR" --toolchain "$RIG_DIR/toolchain.cmake" \
    -DGLINT_ARCH=aarch64 -DGLINT_STATIC=ON -DGLINT_SOURCE_DIR="$SOURCE_DIR" \
    -DGLINT_UNITY_BUILD=OFF -Dfmt_DIR="$(dirname "$fmt_config")"

# ---- 4. initramfs -------------------------------------------------------------------------------
ROOT="$WORK_DIR/initramfs"
BENCH_JSON=/tmp/glint-bench.json  # the bench program writes it; the guest tests read it back
rm -rf "$ROOT" && mkdir -p "$ROOT"/{bin,dev,proc,sys,tmp,etc/glint}
install -m 755 "$BUILD_DIR/glint_guest_init" "$ROOT/init"
install -m 755 "$BUILD_DIR/glint_guest_tests" "$ROOT/bin/"
install -m 755 "$BUILD_DIR/glint/bench/glint_bench" "$ROOT/bin/" || rig_fail "no glint_bench was built"
# Debug sections only: the symbol tables stay, so --profile names functions in the guest.
aarch64-linux-gnu-strip --strip-debug "$ROOT/init" "$ROOT"/bin/*
echo "/proc/sys/kernel/perf_user_access 1" >"$ROOT/etc/glint/sysctl"
echo "GLINT_BENCH_JSON=$BENCH_JSON" >"$ROOT/etc/glint/env"
# The bench program first (the shipped suite, one case, as a user runs it, with both read
# paths' bracket costs in its header, and its sampled profile), then the tests, which also
# check the document it wrote.
cat >"$ROOT/etc/glint/programs" <<PROGRAMS
/bin/glint_bench --bench --perf --perf-read=compare --bench-min-time=1 --profile --filter=add_chain --bench-json=$BENCH_JSON
/bin/glint_guest_tests --no-colors=true --duration=true
PROGRAMS
INITRAMFS="$WORK_DIR/initramfs.cpio"
rig_initramfs "$ROOT" "$INITRAMFS"

# ---- 5. boots -----------------------------------------------------------------------------------
status=0
: >"$WORK_DIR/measurements.txt"
# boot NAME CPU SMP INITRAMFS: one boot, tagged cpu=NAME (GLINT_GUEST_CPU is CPU's model);
# status=1 unless it printed its PASS line.
boot() {
    local name=$1 model=$2 smp=$3 initrd=$4 cpu_option=$2
    [[ $model == max ]] && cpu_option="max,pauth-impdef=on"
    rig_say "booting -cpu $cpu_option -smp $smp (console: $WORK_DIR/console-$name.log)"
    rig_boot "cpu=$name" "$WORK_DIR/console-$name.log" "$BOOT_TIMEOUT" \
        qemu-system-aarch64 -M virt -cpu "$cpu_option" -smp "$smp" -m 512 \
        -icount shift=0,sleep=off -nographic -nic none -no-reboot \
        -kernel "$KERNEL" -initrd "$initrd" \
        -append "console=ttyAMA0 quiet panic=-1 glint.tag=cpu=$name glint.env=GLINT_GUEST_CPU=$model" ||
        status=1
}
for cpu in "${CPUS[@]}"; do boot "$cpu" "$cpu" 1 "$INITRAMFS"; done

# Two vCPUs: the threads of a multi-threaded case each on its own, a spawned thread beside the
# measuring one. The same programs file, filtered to those tests (the bench program is not run).
SMP2_ROOT="$WORK_DIR/initramfs-smp2"
rm -rf "$SMP2_ROOT" && cp -a "$ROOT" "$SMP2_ROOT"
echo "/bin/glint_guest_tests --no-colors=true --duration=true --test-case=*on?N?threads*,coverage:*" \
    >"$SMP2_ROOT/etc/glint/programs"
rig_initramfs "$SMP2_ROOT" "$WORK_DIR/initramfs-smp2.cpio"
boot max-smp2 max 2 "$WORK_DIR/initramfs-smp2.cpio"

rig_say "measurements (instructions, exact under -icount):"
sed -e 's/^glint-measure: /  /' "$WORK_DIR/measurements.txt"
if [[ $status -eq 0 ]]; then rig_say "PASS"; else rig_say "FAIL"; fi
exit $status
