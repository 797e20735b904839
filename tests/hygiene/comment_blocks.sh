#!/usr/bin/env bash
# tests/hygiene/comment_blocks.sh ROOT [LIMIT]: fails when a product source under ROOT (engine/,
# os/, arch/, catalog/, tools/; .hpp and .cpp) has a block of consecutive // comment lines longer
# than LIMIT (11 by default): comments state contracts; rationale and measurements go to docs/.
# One line per block, "<file>:<first line>: <lines> comment lines", then a summary; exit 1.
set -u
root=${1:?usage: comment_blocks.sh SOURCE_ROOT [LIMIT]}
limit=${2:-11}
cd "$root" || exit 2
out=$(find engine os arch catalog tools -type f \( -name '*.hpp' -o -name '*.cpp' \) 2>/dev/null | sort |
      xargs -r awk -v limit="$limit" '
        function flush() { if (run > limit) printf "%s:%d: %d comment lines\n", name, start, run; run = 0 }
        FNR == 1 { flush(); name = FILENAME }
        /^[[:space:]]*\/\// { if (run == 0) start = FNR; run++; next }
        { flush() }
        END { flush() }')
if [[ -n $out ]]; then
    echo "$out"
    echo "comment_blocks: $(wc -l <<<"$out") comment block(s) over $limit lines: keep the contract" \
         "(what it promises, preconditions, errors) and move the rest to docs/"
    exit 1
fi
echo "comment_blocks: no product comment block has more than $limit lines"
