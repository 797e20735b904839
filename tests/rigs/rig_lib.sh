# tests/rigs/rig_lib.sh: what the QEMU guest rigs share (sourced by tests/aarch64/rig.sh and
# tests/numa/rig.sh; docs/rigs.md). Each rig boots a Debian kernel under QEMU with an
# initramfs whose /init is tests/rigs/guest_init.cpp, and passes only on the guest's
# "GLINT-GUEST-RESULT <tag>: PASS" console line.
#
# The caller sets WORK_DIR before sourcing. Exit statuses: 0 pass, 1 fail, 77 (ctest's SKIP)
# only outside CI when the tools cannot be installed here (with CI set that is a failure too).

rig_say() { echo "rig: $*"; }
rig_fail() {
    rig_say "FAIL: $*"
    exit 1
}
rig_cannot_run() {
    if [[ -n "${CI:-}" ]]; then rig_fail "$*"; fi
    rig_say "SKIP: $* (set CI=1 to make this a failure)"
    exit 77
}

# rig_apt_install PACKAGE...: installs with apt-get (root only), updating the lists once if the
# first attempt fails. Output goes to $WORK_DIR/apt.log.
rig_apt_install() {
    [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null || return 1
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends "$@" >"$WORK_DIR/apt.log" 2>&1 && return 0
    apt-get update >>"$WORK_DIR/apt.log" 2>&1 &&
        apt-get install -y --no-install-recommends "$@" >>"$WORK_DIR/apt.log" 2>&1
}

# rig_need "COMMAND:PACKAGE"...: installs the packages of the commands that are missing, or
# cannot run.
rig_need() {
    local missing=() pair
    for pair in "$@"; do
        command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}")
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    rig_say "installing ${missing[*]}"
    rig_apt_install "${missing[@]}" || rig_cannot_run "cannot install ${missing[*]} (see $WORK_DIR/apt.log)"
}

# rig_cache_dir PREFERRED: sets RIG_CACHE to PREFERRED when it can be created and written, else
# to $WORK_DIR/cache.
rig_cache_dir() {
    RIG_CACHE=$1
    if ! mkdir -p "$RIG_CACHE" 2>/dev/null || [[ ! -w $RIG_CACHE ]]; then
        RIG_CACHE="$WORK_DIR/cache"
        mkdir -p "$RIG_CACHE"
    fi
}

# rig_debian_kernel CACHE_DIR DEB_ARCH: sets RIG_KERNEL to Debian's current kernel for DEB_ARCH
# (arm64, amd64), fetched once into CACHE_DIR: the ABI the linux-image-<arch> metapackage
# depends on, its -unsigned package by apt-get download, only ./boot/vmlinuz-* kept. Delete
# the cached vmlinuz-* to fetch a newer one.
rig_debian_kernel() {
    local cache=$1 arch=$2 abi_image download deb native
    RIG_KERNEL=$(ls -1 "$cache"/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
    [[ -n $RIG_KERNEL ]] && return 0
    rig_say "fetching Debian's $arch kernel into $cache"
    [[ $(id -u) -eq 0 ]] || rig_cannot_run "fetching the $arch kernel needs root"
    native=$(dpkg --print-architecture)
    if [[ $arch != "$native" ]] && ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
        dpkg --add-architecture "$arch" || rig_fail "dpkg --add-architecture $arch"
        apt-get update >"$WORK_DIR/apt.log" 2>&1 || rig_fail "apt-get update (see $WORK_DIR/apt.log)"
    fi
    abi_image=$(apt-cache depends "linux-image-$arch:$arch" 2>/dev/null |
        awk '/Depends: linux-image-[0-9]/ { sub(/:.*$/, "", $2); print $2; exit }')
    if [[ -z $abi_image ]]; then
        apt-get update >>"$WORK_DIR/apt.log" 2>&1
        abi_image=$(apt-cache depends "linux-image-$arch:$arch" 2>/dev/null |
            awk '/Depends: linux-image-[0-9]/ { sub(/:.*$/, "", $2); print $2; exit }')
    fi
    [[ -n $abi_image ]] || rig_fail "cannot find the current $arch kernel ABI (apt-cache depends linux-image-$arch:$arch)"
    download="$cache/download"
    rm -rf "$download" && mkdir -p "$download"
    (cd "$download" && apt-get download "${abi_image}-unsigned:$arch") >>"$WORK_DIR/apt.log" 2>&1 ||
        rig_fail "apt-get download ${abi_image}-unsigned:$arch (see $WORK_DIR/apt.log)"
    deb=$(ls -1 "$download"/*.deb | head -n 1)
    dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$download" --wildcards './boot/vmlinuz-*' ||
        rig_fail "cannot unpack $deb"
    mv "$download"/boot/vmlinuz-* "$cache/" && rm -rf "$download"
    RIG_KERNEL=$(ls -1 "$cache"/vmlinuz-* 2>/dev/null | sort -V | tail -n 1)
    [[ -n $RIG_KERNEL ]] || rig_fail "no vmlinuz in ${abi_image}-unsigned"
}

# rig_cmake_build SOURCE BUILD_DIR [CMAKE ARGS...]: configures and builds a guest project,
# showing the log's tail on failure. Uses $GLINT_RIG_JOBS (default 2).
rig_cmake_build() {
    local source=$1 build=$2
    shift 2
    rig_say "building into $build"
    if ! cmake -S "$source" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@" >"$WORK_DIR/configure.log" 2>&1; then
        cat "$WORK_DIR/configure.log"
        rig_fail "configuring the guest build"
    fi
    if ! cmake --build "$build" -j "${GLINT_RIG_JOBS:-2}" >"$WORK_DIR/build.log" 2>&1; then
        tail -n 60 "$WORK_DIR/build.log"
        rig_fail "building the guest programs"
    fi
}

# rig_initramfs ROOT OUT: packs the directory ROOT (its /init, /bin, /etc/glint/...) as a newc
# cpio archive. The guest's /init reads (tests/rigs/guest_init.cpp):
#   /etc/glint/programs  one command per line, arguments separated by spaces, run in order
#   /etc/glint/env       KEY=VALUE lines added to every program's environment
#   /etc/glint/sysctl    "PATH VALUE" lines written before the programs run
rig_initramfs() {
    (cd "$1" && find . | cpio -o -H newc --quiet) >"$2" || rig_fail "packing the initramfs"
}

# rig_boot TAG LOG TIMEOUT QEMU ARGS...: boots, copies the console into LOG (CR stripped) and
# onto stdout prefixed with [TAG], appends its glint-measure: lines to
# $WORK_DIR/measurements.txt, and returns 0 only when the console has
# "GLINT-GUEST-RESULT TAG: PASS". The kernel command line must carry glint.tag=TAG.
rig_boot() {
    local tag=$1 log=$2 timeout=$3 start status result
    shift 3
    start=$(date +%s)
    timeout "$timeout" "$@" </dev/null >"$log" 2>&1
    status=$?
    tr -d '\r' <"$log" >"$log.txt" && mv "$log.txt" "$log"
    sed -e "s/^/[$tag] /" "$log"
    grep '^glint-measure:' "$log" >>"$WORK_DIR/measurements.txt"
    rig_say "$tag: qemu exited with $status after $(($(date +%s) - start)) s"
    if grep -qx "GLINT-GUEST-RESULT $tag: PASS" "$log"; then
        rig_say "$tag: PASS"
        return 0
    fi
    result=$(grep '^GLINT-GUEST-RESULT' "$log" || true)
    rig_say "$tag: FAIL (${result:-no result line: the guest crashed or timed out})"
    return 1
}
