#!/usr/bin/env bash
# tests/hygiene/checks_selftest.sh HYGIENE_DIR: file_sizes.sh, comment_blocks.sh and
# installed_headers.sh each name every planted violation in a scratch tree, and pass its clean files;
# format.sh names a file clang-format would change and passes one it would not; architecture.sh
# names each file that its doc's lists and the code disagree on.
set -u
dir=${1:?usage: checks_selftest.sh HYGIENE_DIR}
work=$(mktemp -d /tmp/glint-hygiene-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "hygiene self-test: FAIL: $*"; echo "$out"; exit 1; }
mkdir -p "$work/src/engine/a" "$work/src/os/linux" "$work/src/tests" "$work/inc/glint/detail/os"
seq 401 | sed 's#^#int x#' >"$work/src/engine/a/long.cpp"
seq 400 | sed 's#^#int y#' >"$work/src/os/linux/limit.hpp"
seq 500 | sed 's#^#int z#' >"$work/src/tests/long_test.cpp"
out=$(bash "$dir/file_sizes.sh" "$work/src" 400); rc=$?
[[ $rc -eq 1 ]] || fail "file_sizes exited $rc, not 1"
grep -qxF "engine/a/long.cpp: 401 lines" <<<"$out" || fail "file_sizes did not name the 401-line file"
[[ $(grep -c ' lines$' <<<"$out") -eq 1 ]] || fail "file_sizes named a file within the limit or outside product folders"
rm "$work/src/engine/a/long.cpp"
out=$(bash "$dir/file_sizes.sh" "$work/src" 400) || fail "file_sizes failed a clean tree"
{ seq 12 | sed 's#^#// essay #'; echo 'int a;'; seq 11 | sed 's#^#    // contract #'; echo 'int b;'; } \
    >"$work/src/engine/a/comments.hpp"
{ echo 'int c;'; seq 13 | sed 's#^#// tail #'; } >"$work/src/os/linux/tail.cpp"
out=$(bash "$dir/comment_blocks.sh" "$work/src" 11); rc=$?
[[ $rc -eq 1 ]] || fail "comment_blocks exited $rc, not 1"
grep -qxF "engine/a/comments.hpp:1: 12 comment lines" <<<"$out" || fail "comment_blocks missed the 12-line block"
grep -qxF "os/linux/tail.cpp:2: 13 comment lines" <<<"$out" || fail "comment_blocks missed the block at the end of a file"
[[ $(grep -c 'comment lines$' <<<"$out") -eq 2 ]] || fail "comment_blocks named the 11-line block"
rm "$work/src/engine/a/comments.hpp" "$work/src/os/linux/tail.cpp"
out=$(bash "$dir/comment_blocks.sh" "$work/src" 11) || fail "comment_blocks failed a clean tree"
cat >"$work/inc/glint/hot.hpp" <<'SRC'
// <glint/hot.hpp>: the one-call read (includes <glint/detail/os/linux/mmap_page.hpp>).
#include <glint/detail/os/os.hpp>
// as engine/tiers/per_iteration does  PLANTED
// the protocol (os/linux/mmap_page.hpp)  PLANTED
// built in bracket_cost.cpp  PLANTED
SRC
mkdir -p "$work/target"
echo '// see arch/arch.hpp  PLANTED' >"$work/target/pmu.hpp"
ln -s "$work/target/pmu.hpp" "$work/inc/glint/detail/os/pmu.hpp"
out=$(bash "$dir/installed_headers.sh" "$work/inc"); rc=$?
[[ $rc -eq 1 ]] || fail "installed_headers exited $rc, not 1"
[[ $(grep -c PLANTED <<<"$out") -eq 4 ]] || fail "installed_headers did not name the 4 planted lines"
[[ $(grep -c '^glint/' <<<"$out") -eq 4 ]] || fail "installed_headers named a <glint/...> line"
sed -i '/PLANTED/d' "$work/inc/glint/hot.hpp" "$work/target/pmu.hpp"
out=$(bash "$dir/installed_headers.sh" "$work/inc") || fail "installed_headers failed a clean tree"
mkdir -p "$work/fmt/engine"
cp "$dir/../../.clang-format" "$work/fmt/"
printf 'int f(int x) { return x; }\n' >"$work/fmt/engine/good.cpp"
printf 'int g( int x ){return x ;}\n' >"$work/fmt/engine/bad.cpp"
out=$(bash "$dir/format.sh" "$work/fmt"); rc=$?
[[ $rc -eq 1 ]] || fail "format exited $rc, not 1"
grep -qxF "engine/bad.cpp: not formatted (clang-format -i engine/bad.cpp)" <<<"$out" || fail "format missed the planted file"
[[ $(grep -c 'not formatted (' <<<"$out") -eq 1 ]] || fail "format named a formatted file"
rm "$work/fmt/engine/bad.cpp"
out=$(bash "$dir/format.sh" "$work/fmt") || fail "format failed a clean tree"
# architecture.sh: a listed file that breaks no rule, and an unlisted one that does (an #if on
# the OS; a direct call hidden from neither comments nor strings), both named; a clean tree passes.
mkdir -p "$work/arch/docs" "$work/arch/os/linux" "$work/arch/engine"
cat >"$work/arch/docs/architecture.md" <<'DOC'
<!-- platform-ifs -->
- `os/os.hpp`, `engine/listed.cpp`
<!-- /platform-ifs -->
<!-- direct-system-calls -->
- `os/linux/sys.cpp`
<!-- /direct-system-calls -->
DOC
printf '#if defined(__linux__)\n#endif\n' >"$work/arch/os/os.hpp"
printf 'int listed;\n' >"$work/arch/engine/listed.cpp"
printf '#elif defined(_WIN32)\n' >"$work/arch/engine/port.cpp"
printf 'int f() { return ::close(3); }\n' >"$work/arch/os/linux/sys.cpp"
printf '// ::close(3)\nconst char* s = "fork()";\nint g() { return fork(); }\n' >"$work/arch/os/linux/direct.cpp"
out=$(bash "$dir/architecture.sh" "$work/arch"); rc=$?
[[ $rc -eq 1 ]] || fail "architecture exited $rc, not 1"
grep -qxF "  listed, not in the code: engine/listed.cpp" <<<"$out" || fail "architecture missed the listed file that has no #if"
grep -qxF "  in the code, not listed: engine/port.cpp" <<<"$out" || fail "architecture missed the unlisted #elif"
grep -qxF "  in the code, not listed: os/linux/direct.cpp" <<<"$out" || fail "architecture missed the unlisted fork()"
[[ $(grep -c '^  ' <<<"$out") -eq 3 ]] || fail "architecture named a file that keeps the rules"
sed -i 's/, `engine\/listed.cpp`/, `engine\/port.cpp`/; s/`os\/linux\/sys.cpp`/`os\/linux\/sys.cpp`, `os\/linux\/direct.cpp`/' \
    "$work/arch/docs/architecture.md"
out=$(bash "$dir/architecture.sh" "$work/arch") || fail "architecture failed a tree that matches its doc"
echo "hygiene self-test: each checker names every planted violation and passes clean files"
