#!/usr/bin/env bash
# tests/aarch64/rig.sh: glint's arm64 PMU user access, proven in a real arm64 Linux kernel
# under QEMU (docs/rigs.md, rig 3).
#
#   rig.sh SOURCE_DIR WORK_DIR
#
# 1. installs what it needs (qemu-system-arm, g++-aarch64-linux-gnu, cpio) when missing;
# 2. fetches Debian's arm64 kernel (linux-image-<abi>-arm64-unsigned:arm64, apt-get download)
#    into a cache kept between runs: $GLINT_AARCH64_CACHE, default /work/cache/aarch64, or
#    WORK_DIR/cache when that is not writable;
# 3. cross-builds tests/aarch64/guest (the glint library and the guest programs, static) with
#    tests/aarch64/toolchain.cmake;
# 4. packs an initramfs whose /init is the guest driver (tests/aarch64/guest/init.cpp);
# 5. boots qemu-system-aarch64 -M virt -smp 1 -icount shift=0,sleep=off twice (icount: exact
#    instruction counts; sleep=off: the virtual clock never follows the host's, so runs repeat):
#    -cpu max (64-bit event counters) and -cpu neoverse-n1 (none: the 32-bit fallback);
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
JOBS=${GLINT_RIG_JOBS:-2}
BOOT_TIMEOUT=${GLINT_RIG_BOOT_TIMEOUT:-300}
CPUS=(max neoverse-n1)

say() { echo "rig: $*"; }
fail() {
    say "FAIL: $*"
    exit 1
}
cannot_run() {
    if [[ -n "${CI:-}" ]]; then fail "$*"; fi
    say "SKIP: $* (set CI=1 to make this a failure)"
    exit 77
}

# ---- 1. tools ------------------------------------------------------------------------------
apt_install() {
    [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null || return 1
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends "$@" >"$WORK_DIR/apt.log" 2>&1 && return 0
    apt-get update >>"$WORK_DIR/apt.log" 2>&1 &&
        apt-get install -y --no-install-recommends "$@" >>"$WORK_DIR/apt.log" 2>&1
}
missing=()
command -v qemu-system-aarch64 >/dev/null || missing+=(qemu-system-arm)
command -v aarch64-linux-gnu-g++ >/dev/null || missing+=(g++-aarch64-linux-gnu)
command -v cpio >/dev/null || missing+=(cpio)
if [[ ${#missing[@]} -gt 0 ]]; then
    say "installing ${missing[*]}"
    apt_install "${missing[@]}" || cannot_run "cannot install ${missing[*]} (see $WORK_DIR/apt.log)"
fi

# ---- 2. the kernel, cached -------------------------------------------------------------------
CACHE_DIR=${GLINT_AARCH64_CACHE:-/work/cache/aarch64}
if ! mkdir -p "$CACHE_DIR" 2>/dev/null || [[ ! -w $CACHE_DIR ]]; then
    CACHE_DIR="$WORK_DIR/cache"
    mkdir -p "$CACHE_DIR"
fi
latest_kernel() { ls -1 "$CACHE_DIR"/vmlinuz-* 2>/dev/null | sort -V | tail -n 1; }
KERNEL=$(latest_kernel)
if [[ -z $KERNEL ]]; then
    say "fetching Debian's arm64 kernel into $CACHE_DIR"
    [[ $(id -u) -eq 0 ]] || cannot_run "fetching the arm64 kernel needs root (dpkg --add-architecture arm64)"
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        dpkg --add-architecture arm64 || fail "dpkg --add-architecture arm64"
    fi
    apt-get update >"$WORK_DIR/apt.log" 2>&1 || fail "apt-get update (see $WORK_DIR/apt.log)"
    # The current ABI is what the linux-image-arm64 metapackage depends on.
    abi_image=$(apt-cache depends linux-image-arm64:arm64 2>/dev/null |
        awk '/Depends: linux-image-[0-9]/ { sub(/:arm64$/, "", $2); print $2; exit }')
    [[ -n $abi_image ]] || fail "cannot find the current arm64 kernel ABI (apt-cache depends linux-image-arm64:arm64)"
    download="$CACHE_DIR/download"
    rm -rf "$download" && mkdir -p "$download"
    (cd "$download" && apt-get download "${abi_image}-unsigned:arm64") >>"$WORK_DIR/apt.log" 2>&1 ||
        fail "apt-get download ${abi_image}-unsigned:arm64 (see $WORK_DIR/apt.log)"
    deb=$(ls -1 "$download"/*.deb | head -n 1)
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$download" --wildcards './boot/vmlinuz-*' ||
        fail "cannot unpack $deb"
    mv "$download"/boot/vmlinuz-* "$CACHE_DIR/" && rm -rf "$download"
    KERNEL=$(latest_kernel)
    [[ -n $KERNEL ]] || fail "no vmlinuz in ${abi_image}-unsigned"
fi
say "kernel: $KERNEL"

# ---- 3. cross-build ----------------------------------------------------------------------------
# fmt is used header-only: the host's package config serves the cross build as well.
fmt_config=$(find /usr/lib /usr/share /usr/local/lib -path '*/cmake/fmt/fmt-config.cmake' 2>/dev/null | head -n 1)
[[ -n $fmt_config ]] || cannot_run "fmt's CMake package (libfmt-dev) is not installed"
BUILD_DIR="$WORK_DIR/build"
say "cross-building into $BUILD_DIR"
if ! cmake -S "$RIG_DIR/guest" -B "$BUILD_DIR" --toolchain "$RIG_DIR/toolchain.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DGLINT_ARCH=aarch64 -DGLINT_STATIC=ON \
    -DGLINT_SOURCE_DIR="$SOURCE_DIR" -Dfmt_DIR="$(dirname "$fmt_config")" \
    >"$WORK_DIR/configure.log" 2>&1; then
    cat "$WORK_DIR/configure.log"
    fail "configuring the cross build"
fi
if ! cmake --build "$BUILD_DIR" -j "$JOBS" >"$WORK_DIR/build.log" 2>&1; then
    tail -n 60 "$WORK_DIR/build.log"
    fail "cross-building the guest programs"
fi

# ---- 4. initramfs -------------------------------------------------------------------------------
ROOT="$WORK_DIR/initramfs"
rm -rf "$ROOT" && mkdir -p "$ROOT"/{bin,dev,proc,sys,tmp}
install -m 755 "$BUILD_DIR/glint_guest_init" "$ROOT/init"
install -m 755 "$BUILD_DIR/glint_guest_tests" "$ROOT/bin/"
install -m 755 "$BUILD_DIR/glint/bench/glint_bench" "$ROOT/bin/" || fail "no glint_bench was built"
# Debug sections only: the symbol tables stay, so --profile names functions in the guest.
aarch64-linux-gnu-strip --strip-debug "$ROOT/init" "$ROOT"/bin/*
INITRAMFS="$WORK_DIR/initramfs.cpio"
(cd "$ROOT" && find . | cpio -o -H newc --quiet) >"$INITRAMFS" || fail "packing the initramfs"

# ---- 5. boots -----------------------------------------------------------------------------------
status=0
: >"$WORK_DIR/measurements.txt"
for cpu in "${CPUS[@]}"; do
    cpu_option=$cpu
    [[ $cpu == max ]] && cpu_option="max,pauth-impdef=on"
    log="$WORK_DIR/console-$cpu.log"
    say "booting -cpu $cpu_option (console: $log)"
    start=$(date +%s)
    timeout "$BOOT_TIMEOUT" qemu-system-aarch64 -M virt -cpu "$cpu_option" -smp 1 -m 512 \
        -icount shift=0,sleep=off -nographic -nic none -no-reboot \
        -kernel "$KERNEL" -initrd "$INITRAMFS" \
        -append "console=ttyAMA0 quiet panic=-1 glint.cpu=$cpu" </dev/null >"$log" 2>&1
    qemu_status=$?
    tr -d '\r' <"$log" >"$log.txt" && mv "$log.txt" "$log"
    sed -e "s/^/[$cpu] /" "$log"
    grep '^glint-measure:' "$log" >>"$WORK_DIR/measurements.txt"
    say "-cpu $cpu: qemu exited with $qemu_status after $(($(date +%s) - start)) s"
    if grep -qx "GLINT-GUEST-RESULT cpu=$cpu: PASS" "$log"; then
        say "-cpu $cpu: PASS"
    else
        result=$(grep '^GLINT-GUEST-RESULT' "$log" || true)
        say "-cpu $cpu: FAIL (${result:-no result line: the guest crashed or timed out})"
        status=1
    fi
done

say "measurements (instructions, exact under -icount):"
sed -e 's/^glint-measure: /  /' "$WORK_DIR/measurements.txt"
if [[ $status -eq 0 ]]; then say "PASS"; else say "FAIL"; fi
exit $status
