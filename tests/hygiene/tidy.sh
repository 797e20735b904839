#!/usr/bin/env bash
# tests/hygiene/tidy.sh ROOT BUILD [JOBS]: runs clang-tidy 14 with ROOT/.clang-tidy over every
# product source (.cpp under engine/, os/, arch/, catalog/, tools/) that BUILD's
# compile_commands.json compiles. Prints each finding; exit 1 when there is one, 2 when
# clang-tidy-14 or the compile database is missing (third_party/setup-debian.sh installs it).
set -u
root=${1:?usage: tidy.sh SOURCE_ROOT BUILD_DIR [JOBS]}
build=${2:?usage: tidy.sh SOURCE_ROOT BUILD_DIR [JOBS]}
jobs=${3:-$(nproc)}
tool=$(command -v clang-tidy-14 || true)
if [[ -z $tool ]]; then
    echo "tidy: clang-tidy-14 not found: apt-get install -y clang-tidy-14"
    exit 2
fi
if [[ ! -f $build/compile_commands.json ]]; then
    echo "tidy: $build/compile_commands.json is missing: configure glint as the top-level project"
    exit 2
fi
cd "$root" || exit 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The product sources the build compiles (the database names them by absolute path).
grep -o '"file": "[^"]*"' "$build/compile_commands.json" | sed 's/"file": "//; s/"$//' |
    grep -E "^$PWD/(engine|os|arch|catalog|tools)/.*\.cpp$" | sort -u >"$out/files"
# clang-tidy cannot parse g++-only flags of the database: drop them.
xargs -a "$out/files" -P "$jobs" -I{} sh -c \
    '"$0" -p "$1" --quiet --extra-arg=-Wno-unknown-warning-option "$2" >"$3/$(echo "$2" | tr / _).log" 2>&1 || true' \
    "$tool" "$build" {} "$out"
findings=$(cat "$out"/*.log 2>/dev/null | grep -E ': (warning|error): ' | sort -u)
count=$(wc -l <"$out/files")
if [[ -n $findings ]]; then
    echo "$findings"
    echo "tidy: $(wc -l <<<"$findings") finding(s) in $count product sources (.clang-tidy says why each check is on)"
    exit 1
fi
echo "tidy: no finding in $count product sources"
