#!/usr/bin/env bash
# docs/comparing.md's "glint-compare flags" table names exactly the flags `glint-compare --help`
# lists, both ways: a flag added to glint-compare without its row, or a row left after its flag
# went, fails. Usage: compare_flags.sh <source dir> <glint-compare binary>
#
# A flag of --help is a line indented by two spaces that starts with `--NAME` (the name ends at
# `=`, `[` or a space); a flag of the page is the first code span of a table row of that section.
set -euo pipefail
src=$1 compare=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$compare" --help > "$work/help"
sed -nE 's/^  (--[a-z][a-z0-9-]*).*/\1/p' "$work/help" | sort -u > "$work/from_help"
awk '
  /^## / { on = ($0 == "## glint-compare flags"); next }
  on && /^\| `--/ { flag = substr($0, 4); sub(/[=`[ ].*/, "", flag); print flag }
' "$src/docs/comparing.md" | sort -u > "$work/from_page"
for list in from_help from_page; do
  if [ ! -s "$work/$list" ]; then
    echo "no flags found in ${list#from_} (docs/comparing.md needs a '## glint-compare flags' table)"
    exit 1
  fi
done
status=0
while read -r flag; do
  echo "glint-compare --help lists $flag, the table in docs/comparing.md (glint-compare flags) does not"
  status=1
done < <(comm -23 "$work/from_help" "$work/from_page")
while read -r flag; do
  echo "docs/comparing.md (glint-compare flags) has $flag, glint-compare --help does not list it"
  status=1
done < <(comm -13 "$work/from_help" "$work/from_page")
echo "$(wc -l < "$work/from_help") flags of glint-compare --help, $(wc -l < "$work/from_page") in the table"
exit $status
