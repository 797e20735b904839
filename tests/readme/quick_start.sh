#!/usr/bin/env bash
# README's quick start, run as written: the ```sh, ```cmake and ```cpp blocks between
# `<!-- quick-start -->` and `<!-- /quick-start -->`, in order, in a temporary project directory
# with HOME a temporary directory too. Usage: quick_start.sh <source dir> <build dir>
#
#   - a ```cmake or ```cpp block is a file: its first line is a comment naming it
#     (`# CMakeLists.txt`, `// my_bench.cpp`), and it is written there, as a reader would save it;
#   - a ```sh block runs line by line (comment lines skipped), each with bash in the project
#     directory; a line must exit 0, or N when it ends with the comment `# exit status N`.
# Two lines are run against what CI already has, to keep the test within a minute or so:
#   - `cmake --install build ...` runs in the source directory with `build` meaning <build dir>
#     (the tree CI just built: building glint again would take minutes);
#   - `... glint-compare --alternate=K ...` runs with K = 1 (2 × 8 runs take minutes; bench/aa.sh
#     and the e2e tests cover the recipe): its flags and programs must be accepted and the runs
#     compared (exit status 0, 1 or 3, never 2) with the gate's line printed.
# Nothing else is skipped or edited. A failure names the README line and shows its output.
set -euo pipefail
src=$(realpath "$1") build=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work/home
mkdir -p "$HOME" "$work/project"
cd "$work/project"

# The quick start's blocks: block<N>.<lang> and block<N>.line (README line of the fence).
awk -v dir="$work" '
  /^<!-- quick-start -->$/   { on = 1; next }
  /^<!-- \/quick-start -->$/ { on = 0; next }
  on && /^```(sh|cmake|cpp)[[:space:]]*$/ {
    n++; lang = substr($0, 4); sub(/[[:space:]]*$/, "", lang)
    file = sprintf("%s/block%02d.%s", dir, n, lang); printf "" > file
    print NR > (file ".line"); close(file ".line"); inblock = 1; next }
  inblock && /^```/ { inblock = 0; close(file); next }
  inblock           { print >> file }
' "$src/README.md"
shopt -s nullglob
blocks=("$work"/block*.sh "$work"/block*.cmake "$work"/block*.cpp)
if ((${#blocks[@]} == 0)); then
  echo "README.md has no quick start between <!-- quick-start --> and <!-- /quick-start -->"
  exit 1
fi
mapfile -t blocks < <(printf '%s\n' "${blocks[@]}" | sort)

fail() { echo "README.md:$1: $2"; [ -f "$work/out" ] && tail -n 40 "$work/out"; exit 1; }
lines=0
for block in "${blocks[@]}"; do
  fence=$(cat "$block.line")
  case $block in
    *.cmake | *.cpp)
      name=$(head -n 1 "$block" | sed -E 's@^(#|//)[[:space:]]*@@')
      [[ $name =~ ^[A-Za-z0-9_.-]+$ ]] || fail "$fence" "the block's first line must name its file (# NAME or // NAME)"
      cp "$block" "$work/project/$name"
      echo "README.md:$fence: wrote $name"
      continue ;;
  esac
  n=0
  while IFS= read -r line || [ -n "$line" ]; do
    n=$((n + 1))
    [[ -z ${line//[[:space:]]/} || $line =~ ^[[:space:]]*# ]] && continue
    at=$((fence + n))
    [[ $line == *\\ ]] && fail "$at" "a continued line is not supported by this test: $line"
    expected=0
    [[ $line =~ \#[[:space:]]*exit\ status\ ([0-9]+)[[:space:]]*$ ]] && expected=${BASH_REMATCH[1]}
    dir=$work/project command=$line
    if [[ $line =~ ^cmake\ --install\ build\  ]]; then
      dir=$src command="cmake --install \"$build\" ${line#cmake --install build }"
    fi
    alternate=0
    if [[ $line =~ glint-compare\ .*--alternate=[0-9]+ ]]; then
      alternate=1 command=$(sed -E 's/--alternate=[0-9]+/--alternate=1/' <<< "$line")
    fi
    lines=$((lines + 1))
    status=0
    (cd "$dir" && bash -c "$command") > "$work/out" 2>&1 < /dev/null || status=$?
    if ((alternate)); then
      { ((status != 2)) && grep -q -- '--fail-if-slower=.*: ' "$work/out"; } ||
        fail "$at" "the alternating recipe (run with --alternate=1) exited $status: $line"
      echo "README.md:$at: exit status $status (--alternate=1: the recipe's flags and programs accepted): $line"
      continue
    fi
    ((status == expected)) || fail "$at" "exit status $status, the text says $expected: $line"
    echo "README.md:$at: exit status $status: $line"
  done < "$block"
done
((lines > 0)) || fail 1 "the quick start has no command"
echo "quick start: $lines commands ran as written"
