#!/usr/bin/env bash
# tests/html/check.sh: the HTML reports opened in headless Chromium, as a reader's browser would
# open them (from disk, no network). Writes a run's report (--bench-html, against a baseline)
# and glint-compare's (--html) from the A/B fixture, then for each:
#   - dumps the DOM after the page's script ran, sorted by "#sort=-median": every row of the
#     JSON is a <tr class="row">, each holds exactly one <svg class="dist"> with the baseline's
#     lane and this run's, and the rows are in descending median order (the script sorted them);
#   - takes a screenshot (a PNG of more than 20 KB: the page rendered).
# Chromium (Debian's chromium) is installed when missing and possible (root, apt-get); when it
# cannot be, the test is skipped (exit 77) — under CI it fails instead.
#
#   check.sh FIXTURE GLINT_COMPARE WORK_DIR
set -uo pipefail
fixture=$1 compare=$2 work=$3

fail() { echo "html: FAIL: $*" >&2; exit 1; }
cannot_run() {
    if [[ -n ${CI:-} ]]; then fail "$* (CI must be able to run this test)"; fi
    echo "GLINT-SKIP: html/chromium: $*"
    exit 77
}

browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $browser ]]; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        mkdir -p "$work"
        export DEBIAN_FRONTEND=noninteractive
        { apt-get install -y -qq --no-install-recommends chromium ||
          { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium; }; } \
            >"$work/apt.log" 2>&1 || cannot_run "cannot install chromium (see $work/apt.log)"
        browser=$(command -v chromium || true)
    fi
    [[ -n $browser ]] || cannot_run "chromium is not installed and cannot be installed here (needs root and apt-get)"
fi

rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
profile="$work/profile"
chrome() {
    timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" "$@" \
        2>>"$work/chromium.log"
}

"$fixture" --bench --bench-repeat=4 --bench-min-time=1 --bench-json="$work/base.json" \
    >"$work/base.out" 2>&1 || fail "the base run failed (see $work/base.out)"
GLINT_FIXTURE_SLOWER=30 "$fixture" --bench --bench-repeat=4 --bench-min-time=1 \
    --bench-baseline="$work/base.json" --bench-html="$work/run.html" --bench-json="$work/new.json" \
    >"$work/new.out" 2>&1 || fail "the new run failed (see $work/new.out)"
"$compare" "$work/base.json" "$work/new.json" --html="$work/compare.html" >"$work/compare.out" ||
    fail "glint-compare --html failed (see $work/compare.out)"
rows=$(grep -c '"repetitionMediansNs":' "$work/new.json")
[[ $rows -ge 4 ]] || fail "the run wrote $rows rows, expected 4"

for page in run compare; do
    dom="$work/$page.dom.html"
    chrome --dump-dom "file://$work/$page.html#sort=-median" >"$dom" || fail "$page: chromium --dump-dom failed (see $work/chromium.log)"
    shown=$(grep -o '<tr class="row"' "$dom" | wc -l)
    [[ $shown -eq $rows ]] || fail "$page: $shown rows in the DOM, expected $rows"
    # Per row: exactly one plot, with both lanes.
    awk -v page="$page" '
        { text = text $0 "\n" }
        END {
            n = split(text, parts, "<tr class=\"row\"")
            for (i = 2; i <= n; i++) {
                row = substr(parts[i], 1, index(parts[i], "</tr>"))
                svgs = gsub(/<svg class="dist"/, "&", row)
                base = gsub(/class="lane-base"/, "&", row)
                mine = gsub(/class="lane-new"/, "&", row)
                if (svgs != 1 || base != 1 || mine != 1) {
                    printf "html: FAIL: %s: row %d has %d plots, %d baseline lanes, %d lanes of its own\n", page, i - 1, svgs, base, mine > "/dev/stderr"
                    exit 1
                }
            }
        }' "$dom" || exit 1
    grep -q 'data-sorted="median:desc"' "$dom" || fail "$page: the page's script did not sort by #sort=-median"
    grep -o 'data-col="median" data-sort="[^"]*"' "$dom" | sed 's/.*data-sort="\([^"]*\)"/\1/' >"$work/$page.medians"
    [[ $(wc -l <"$work/$page.medians") -eq $rows ]] || fail "$page: $(wc -l <"$work/$page.medians") median cells, expected $rows"
    sort -g -r -c "$work/$page.medians" 2>/dev/null || fail "$page: rows are not in descending median order: $(tr '\n' ' ' <"$work/$page.medians")"
    png="$work/$page.png"
    chrome --screenshot="$png" --window-size=1400,1000 "file://$work/$page.html" >/dev/null ||
        fail "$page: chromium --screenshot failed (see $work/chromium.log)"
    [[ $(head -c 8 "$png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "$page: $png is not a PNG"
    size=$(stat -c %s "$png")
    [[ $size -gt 20000 ]] || fail "$page: the screenshot is $size bytes: an empty page?"
    echo "html: $page: $shown rows, one plot each (baseline lane and this run's), sorted by the page's script; screenshot $size bytes ($png)"
done
echo "html: ok"
