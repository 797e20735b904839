#!/usr/bin/env bash
# tests/hygiene/format.sh ROOT: fails when a C++ source under ROOT (every .cpp, .hpp and .h
# outside build trees and third_party/) differs from what clang-format 14 makes of it with
# ROOT/.clang-format. One line per file, "<file>: not formatted (clang-format -i <file>)", then
# a summary; exit 1. Exit 2 when clang-format 14 is missing (third_party/setup-debian.sh
# installs it): another version formats differently, so none other is used.
set -u
root=${1:?usage: format.sh SOURCE_ROOT}
cd "$root" || exit 2
tool=$(command -v clang-format-14 || true)
if [[ -z $tool ]]; then
    echo "format: clang-format-14 not found: apt-get install -y clang-format-14"
    exit 2
fi
found=0
while IFS= read -r file; do
    if ! "$tool" --style=file --dry-run --Werror "$file" >/dev/null 2>&1; then
        echo "$file: not formatted (clang-format -i $file)"
        found=$((found + 1))
    fi
done < <(find . \( -path ./third_party -o -path './build*' -o -name '.git' \) -prune -o \
              -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) -print | sed 's#^\./##' | sort)
if ((found)); then
    echo "format: $found file(s) not formatted: run clang-format -i on each (.clang-format is the style)"
    exit 1
fi
echo "format: every C++ source is formatted"
