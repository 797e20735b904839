#!/usr/bin/env bash
# tests/hygiene/host_paths_selftest.sh CHECKER: host_paths.sh finds each kind of write it names in
# a planted tree, and lets the allowed reads and discarded streams through.
set -u
checker=${1:?usage: host_paths_selftest.sh CHECKER}
work=$(mktemp -d /tmp/glint-host-paths-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tests/unit" "$work/tests/e2e" "$work/tests/aarch64/guest" "$work/bench"
# Each planted line carries PLANTED; every one must be reported.
cat >"$work/tests/unit/planted_test.cpp" <<'SRC'
auto a = write_output(resolved("/dev/full"), "x");  // PLANTED
std::FILE* b = std::fopen("/dev/full", "w");  // PLANTED
const int c = ::open("/dev/null", O_WRONLY | O_CLOEXEC);  // PLANTED
std::ofstream d("/proc/sys/kernel/perf_event_paranoid");  // PLANTED
CHECK(*probe_output(resolved("/proc/glint-probe.json")) == "");  // PLANTED
const int ok1 = ::open("/dev/zero", O_RDONLY | O_CLOEXEC);
std::FILE* ok2 = std::fopen("/proc/self/maps", "r");
std::ifstream ok3("/proc/self/status");
CHECK(remedy == "echo 1 > /sys/bus/event_source/devices/cpu/rdpmc (as root)");
SRC
cat >"$work/tests/e2e/planted_test.cpp" <<'SRC'
auto e = run_process({fixture_path("basic"), "--bench", "--bench-json=/dev/full"});  // PLANTED
BackgroundProcess f({fixture_path("basic"), "--bench"}, {}, "/dev/full");  // PLANTED
auto g = run_process({fixture_path("basic"), "--bench-html=/sys/x.html"});  // PLANTED
auto ok4 = run_process({fixture_path("basic"), "--bench", "--bench-baseline=/dev/zero"});
SRC
cat >"$work/bench/planted.sh" <<'SRC'
./glint_bench --bench > /dev/full  # PLANTED
echo 1 | tee /proc/sys/kernel/perf_event_paranoid  # PLANTED
./glint_bench --bench --bench-json=/dev/full >/dev/null  # PLANTED
command -v apt-get >/dev/null 2>&1 && echo ok >/dev/stderr
read -r x </proc/cpuinfo
SRC
echo 'std::ofstream out("/proc/sys/kernel/" + name);  // a guest: its own machine' \
    >"$work/tests/aarch64/guest/guest_test.cpp"
out=$(bash "$checker" "$work")
rc=$?
fail() { echo "host_paths self-test: FAIL: $*"; echo "$out"; exit 1; }
[[ $rc -eq 1 ]] || fail "the checker exited $rc on a tree with planted writes, not 1"
planted=$(grep -rn PLANTED "$work/tests" "$work/bench" | wc -l)
reported=$(grep -c PLANTED <<<"$out")
[[ $reported -eq $planted ]] || fail "$reported of $planted planted writes reported"
reported_all=$(grep -c '^[a-z].*:[0-9]*: ' <<<"$out")
[[ $reported_all -eq $planted ]] || fail "$reported_all lines reported, $planted planted: an allowed read was reported"
rm -rf "$work/tests" "$work/bench"
mkdir -p "$work/tests"
echo 'const int ok = ::open("/dev/zero", O_RDONLY);' >"$work/tests/clean_test.cpp"
bash "$checker" "$work" >/dev/null || fail "the checker fails a tree without writes"
echo "host_paths self-test: $planted planted writes found, the reads and the guest let through"
