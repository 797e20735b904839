#!/usr/bin/env bash
# bench/compare_scale.sh: glint-compare on large documents (docs/comparing.md, "Scale"). Writes
# two generated --bench-json documents of ROWS rows, each row SAMPLES samples and one
# repetition (so every row is judged by its samples, the costliest path; see
# compare_scale_documents.py), then times glint-compare BASE NEW with /usr/bin/time -v and prints
# the document sizes, the elapsed, user and system seconds and the maximum resident set size.
# The target docs/comparing.md states (80,000 rows: under 10 s elapsed, under 600 MB) is reported
# as met or not (not judged for fewer rows); exit status 1 when it is not met, 2 when a step
# failed. A benchmark, not a test: the
# figures depend on the machine and on what else runs on it.
#
#   bash bench/compare_scale.sh [ROWS [SAMPLES]]       (defaults: 80000 rows, 256 samples)
#
# GLINT_SCALE_COMPARE=PROGRAM uses that glint-compare (else build/tools/glint-compare, built
# first); GLINT_SCALE_DIR=DIR keeps the documents there (reused when present: generating them
# takes about 40 s of CPU for 80,000 rows), else a temporary directory is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
rows=${1:-80000}
samples=${2:-256}
compare=${GLINT_SCALE_COMPARE:-./build/tools/glint-compare}
if [[ -z ${GLINT_SCALE_COMPARE:-} ]]; then
  [[ -d build ]] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$(nproc)" --target glint-compare >/dev/null
fi
[[ -x /usr/bin/time ]] || { echo "compare_scale: needs GNU time at /usr/bin/time" >&2; exit 2; }
python=/usr/bin/python3  # the system's (python3 on PATH may be a version manager's shim)
[[ -x $python ]] || python=$(command -v python3) || { echo "compare_scale: needs python3" >&2; exit 2; }
if [[ -n ${GLINT_SCALE_DIR:-} ]]; then
  work=$GLINT_SCALE_DIR
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
base=$work/base-$rows-$samples.json
new=$work/new-$rows-$samples.json
if [[ ! -s $base || ! -s $new ]]; then
  "$python" bench/compare_scale_documents.py "$rows" "$samples" "$base" "$new" ||
    { echo "compare_scale: generating the documents failed" >&2; exit 2; }
fi
status=0
/usr/bin/time -v -o "$work/time.txt" "$compare" "$base" "$new" >"$work/out.txt" 2>"$work/err.txt" ||
  status=$?
if [[ $status -ne 0 ]]; then
  echo "compare_scale: glint-compare exited $status:" >&2
  head -5 "$work/err.txt" >&2
  exit 2
fi
field() { sed -n "s/^[[:space:]]*$1: //p" "$work/time.txt"; }
elapsed=$(field 'Elapsed (wall clock) time (h:mm:ss or m:ss)')
seconds=$(awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }' <<<"$elapsed")
user=$(field 'User time (seconds)')
sys=$(field 'System time (seconds)')
rss_kb=$(field 'Maximum resident set size (kbytes)')
rss_mb=$(awk -v k="$rss_kb" 'BEGIN { printf "%.0f", k / 1024 }')
size_mb=$(du -m "$base" "$new" | awk '{ printf "%s%s", sep, $1; sep = " + " }')
echo "documents: $rows rows x $samples samples, $size_mb MB"
echo "glint-compare: ${seconds} s elapsed (${user} s user, ${sys} s system), max RSS ${rss_mb} MB"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
tail -1 "$work/out.txt"
if ((rows < 80000)); then
  echo "target (80,000 rows under 10 s, under 600 MB): not judged, $rows rows"
elif awk -v s="$seconds" -v r="$rss_mb" 'BEGIN { exit !(s < 10 && r < 600) }'; then
  echo "target (80,000 rows under 10 s, under 600 MB): met"
else
  echo "target (80,000 rows under 10 s, under 600 MB): not met"
  exit 1
fi
