#!/usr/bin/env bash
# tests/hygiene/file_sizes.sh ROOT [LIMIT]: fails when a product source under ROOT (engine/, os/,
# arch/, catalog/, tools/; .hpp and .cpp) has more than LIMIT lines (400 by default). One line per
# offender, "<file>: <lines> lines", then a summary; exit 1.
set -u
root=${1:?usage: file_sizes.sh SOURCE_ROOT [LIMIT]}
limit=${2:-400}
cd "$root" || exit 2
found=0
while IFS= read -r file; do
    lines=$(wc -l <"$file")
    if ((lines > limit)); then
        echo "$file: $lines lines"
        found=$((found + 1))
    fi
done < <(find engine os arch catalog tools -type f \( -name '*.hpp' -o -name '*.cpp' \) 2>/dev/null | sort)
if ((found)); then
    echo "file_sizes: $found product file(s) over $limit lines: split each by concern"
    exit 1
fi
echo "file_sizes: every product file has at most $limit lines"
