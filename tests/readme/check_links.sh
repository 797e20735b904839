#!/usr/bin/env bash
# Every relative markdown link of README.md and docs/*.md points at a file that exists and, when
# it names an #anchor in a markdown file, at a heading of that file. Usage: check_links.sh <source dir>
#
# Links are `[text](target)` outside fenced code blocks and inline code spans; http(s): and
# mailto: targets are not checked (no network). Anchors are GitHub's: the heading lowercased,
# every character but letters, digits, spaces, `-` and `_` removed, spaces made `-`, and a
# repeated heading suffixed -1, -2, ... A dead link is named by file:line; none found fails too.
set -euo pipefail
src=$1
cd "$src"
export LC_ALL=C
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
files=(README.md docs/*.md)

# "file<TAB>anchor" for every heading of every markdown file in the repository's guide.
for f in "${files[@]}"; do
  awk -v file="$f" '
    /^```/ { fence = !fence; next }
    fence || !/^#+ / { next }
    {
      h = $0; sub(/^#+ +/, "", h); h = tolower(h)
      # Symbols GitHub drops (UTF-8): × — → … ± · ≈ ≥ ▸
      gsub(/\303\227|\342\200\224|\342\206\222|\342\200\246|\302\261|\302\267|\342\211\210|\342\211\245|\342\226\270/, "", h)
      gsub(/[^a-z0-9 _\200-\377-]/, "", h)
      gsub(/ /, "-", h)
      slug = h; if (seen[h]++) slug = h "-" (seen[h] - 1)
      print file "\t" slug
    }' "$f"
done > "$work/anchors"

# "file<TAB>line<TAB>target" for every link.
for f in "${files[@]}"; do
  awk -v file="$f" '
    /^```/ { fence = !fence; next }
    fence { next }
    {
      line = $0; gsub(/`[^`]*`/, "", line)
      while (match(line, /\]\([^)[:space:]]+\)/)) {
        print file "\t" FNR "\t" substr(line, RSTART + 2, RLENGTH - 3)
        line = substr(line, RSTART + RLENGTH)
      }
    }' "$f"
done > "$work/links"

links=0 dead=0
while IFS=$'\t' read -r file line target; do
  links=$((links + 1))
  case $target in http://* | https://* | mailto:*) continue ;; esac
  path=${target%%#*}
  anchor=
  [[ $target == *"#"* ]] && anchor=${target#*#}
  if [ -z "$path" ]; then
    resolved=$file
  else
    resolved=$(realpath -m --relative-to=. "$(dirname "$file")/$path")
  fi
  if [ ! -e "$resolved" ]; then
    echo "$file:$line: dead link: $target ($resolved does not exist)"; dead=$((dead + 1)); continue
  fi
  if [ -n "$anchor" ] && [[ $resolved == *.md ]] && ! grep -qxF "$resolved"$'\t'"$anchor" "$work/anchors"; then
    if ! grep -q "^$resolved"$'\t' "$work/anchors" && [[ $resolved != README.md && $resolved != docs/* ]]; then
      echo "$file:$line: $target: $resolved is outside README.md and docs/: its anchors are not checked"
      continue
    fi
    echo "$file:$line: dead anchor: $target (no heading of $resolved has the anchor #$anchor)"
    dead=$((dead + 1))
  fi
done < "$work/links"
if ((links == 0)); then
  echo "README.md and docs/ have no link: nothing was checked"
  exit 1
fi
echo "$links links checked, $dead dead"
((dead == 0))
