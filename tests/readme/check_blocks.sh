#!/usr/bin/env bash
# Every ```cpp block of README.md and docs/*.md compiles against the installed package, so the
# examples can never rot. Usage: check_blocks.sh <source dir> <build dir>
#
# One install of the build into a temporary prefix, then each block, by what it is:
#   - a suite (it uses GLINT_BENCH and has no main): built and linked with glint-main, then run
#     as a plain test (every case once; it must pass);
#   - a program (it defines main): built and linked with glint;
#   - a fragment (anything else: statements, as the body of a function): its #include lines
#     hoisted, the rest wrapped in `int glint_readme_fragment() { ... return 0; }`, compiled with
#     -fsyntax-only. A fragment includes the headers it uses, as a reader would copy it.
# All with -std=c++20 -Wall -Werror and the flags pkg-config gives. A failure names the block
# by file:line and shows the compiler's output; README.md without cpp blocks fails too.
# Then each `g++ ... my_bench.cpp ... pkg-config ...` command of README.md and docs/ runs as
# written on a one-case suite, whose --bench header must warn of no debug build (assertions, -O0).
set -euo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
PKG_CONFIG_PATH="$(dirname "$(find "$work/prefix" -name glint.pc | head -n1)")"
export PKG_CONFIG_PATH
read -r -a main_flags <<< "$(pkg-config --cflags --libs glint-main)"
read -r -a lib_flags <<< "$(pkg-config --cflags --libs glint)"

# block<N>.cpp and block<N>.line (file:line of its opening fence).
(cd "$src" && awk -v dir="$work" '
  /^```cpp[[:space:]]*$/ { n++; file = sprintf("%s/block%03d.cpp", dir, n); printf "" > file;
                           print FILENAME ":" FNR > (file ".line"); close(file ".line"); inblock = 1; next }
  inblock && /^```/      { inblock = 0; close(file); next }
  inblock                { print >> file }
' README.md docs/*.md)

shopt -s nullglob
blocks=("$work"/block*.cpp)
# grep reads the files itself: `cat ... | grep -q` fails under pipefail when grep stops first
if ((${#blocks[@]} == 0)) || ! grep -qh '^README\.md:' "$work"/block*.cpp.line; then
  echo "README.md has no \`\`\`cpp block: nothing was checked"
  exit 1
fi
failed=0
# <glint/asm.hpp> needs glint's x86-64 back end: elsewhere (port/generic-os, an AArch64 build)
# its blocks are skipped, saying so; the x86-64 trees check them.
x86_64_back_end=0
grep -rqs 'GLINT_CONFIG_ARCH_x86_64' "$work/prefix/include/glint/detail/config.hpp" && x86_64_back_end=1
for b in "${blocks[@]}"; do
  line=$(cat "$b.line")
  exe=${b%.cpp}
  if ((!x86_64_back_end)) && grep -q '<glint/asm.hpp>' "$b"; then
    echo "$line: skipped (<glint/asm.hpp> needs glint's x86-64 back end; this build's is another)"
    continue
  fi
  if grep -q 'int main(' "$b"; then
    kind=program
    cmd=(g++ -std=c++20 -O1 -Wall -Werror "$b" -o "$exe" "${lib_flags[@]}")
  elif grep -q 'GLINT_BENCH' "$b"; then
    kind=suite
    cmd=(g++ -std=c++20 -O1 -Wall -Werror "$b" -o "$exe" "${main_flags[@]}")
  else
    kind=fragment
    wrapped=${b%.cpp}.fragment.cpp
    { grep '^#include' "$b" || true
      echo 'int glint_readme_fragment() {'
      grep -v '^#include' "$b" || true
      echo 'return 0; }'; } > "$wrapped"
    cmd=(g++ -std=c++20 -Wall -Werror -fsyntax-only "$wrapped" "${lib_flags[@]}")
  fi
  if ! "${cmd[@]}" > "$work/out.log" 2>&1; then
    echo "$line: the $kind does not compile:"
    cat "$work/out.log"
    failed=1
    continue
  fi
  if [ "$kind" = suite ] && ! "$exe" > "$work/run.log" 2>&1; then
    echo "$line: the suite compiles but its cases do not pass as tests:"
    cat "$work/run.log"
    failed=1
    continue
  fi
  echo "$line: $kind ok"
done

commands=0
while IFS=: read -r file line command; do
  commands=$((commands + 1))
  dir=$work/command$commands
  mkdir -p "$dir"
  printf '#include <glint/bench.hpp>\nGLINT_BENCH("readme/command") {\n  unsigned x = 1;\n  glint::iter([&] { x = glint::black_box(x + x); });\n}\n' > "$dir/my_bench.cpp"
  if ! (cd "$dir" && bash -c "$command") > "$dir/build.log" 2>&1; then
    echo "$file:$line: the command does not build: $command"; cat "$dir/build.log"; failed=1; continue
  fi
  "$dir/my_bench" --bench --bench-min-time=0.1 > "$dir/run.log" 2>&1 || { cat "$dir/run.log"; failed=1; continue; }
  if grep -E "assertions enabled|without optimization" "$dir/run.log"; then
    echo "$file:$line: the command builds a debug binary: $command"; failed=1; continue
  fi
  echo "$file:$line: command ok"
done < <(cd "$src" && grep -nH -E '^g\+\+ .*my_bench\.cpp.*pkg-config' README.md docs/*.md || true)
if ((commands == 0)); then
  echo "README.md and docs/ have no g++ ... pkg-config command: nothing was run"
  failed=1
fi
exit $failed
