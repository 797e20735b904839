#!/usr/bin/env bash
# tests/html/check.sh: the HTML reports opened in headless Chromium, as a reader's browser would
# open them (from disk, no network). Writes a run's report (--bench-html, against a baseline of
# 3 runs, with --profile), glint-compare's (--html, the same 3-run base) and, from the noise
# fixture (cases measured unstably on purpose), a run's and a comparison's; then for each:
#   - dumps the DOM after the page's script ran, sorted by "#sort=-median": every row of the
#     JSON is a <tr class="row">, each holds exactly one <svg class="dist"> (the ab pages: with
#     the baseline's lane and this run's), the rows in descending median order;
#   - axis labels name real samples: the lo label is the lowest sample of the row's lanes and
#     reads as the lane's hover text writes it (or, strays beyond, names their extreme), the hi
#     label likewise;
#   - the compare page's title names the 3-run side once ("base (3 runs: a1.json … a3.json)");
#   - each row the JSON marks unstable shows "~" and its reasons' codes; each flame frame's label
#     is the full name of its <title> or a shortened form of it with "…" (flames.awk);
#   - the comparison pages, laid out in a 1400 px window, scroll no wider and show every cell;
#   - takes a screenshot (a PNG of more than 20 KB: the page rendered).
# Chromium (Debian's chromium) is installed when missing and possible (root, apt-get); when it
# cannot be, the test is skipped (exit 77) — under CI it fails instead.
#
#   check.sh FIXTURE GLINT_COMPARE WORK_DIR [NOISE_FIXTURE]
set -uo pipefail
fixture=$1 compare=$2 work=$3 noise=${4:-}

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

for i in 1 2 3; do
    "$fixture" --bench --bench-repeat=2 --bench-min-time=0.05 --bench-json="$work/a$i.json" \
        >"$work/a$i.out" 2>&1 || fail "base run $i failed (see $work/a$i.out)"
done
base="$work/a1.json,$work/a2.json,$work/a3.json"
GLINT_FIXTURE_SLOWER=30 "$fixture" --bench --bench-repeat=4 --bench-min-time=0.05 --bench-baseline="$base" \
    --bench-html="$work/run.html" --bench-json="$work/new.json" --profile --profile-samples=50 \
    --profile-time=2000 >"$work/new.out" 2>&1 || fail "the new run failed (see $work/new.out)"
"$compare" "$base" "$work/new.json" --html="$work/compare.html" >"$work/compare.out" ||
    fail "glint-compare --html failed (see $work/compare.out)"
pages="run compare"
if [[ -n $noise ]]; then
    for i in 1 2; do
        "$noise" --bench --filter=sleeper,tiny --bench-min-time=0.05 --bench-json="$work/u$i.json" \
            --bench-html="$work/unstable.html" >"$work/u$i.out" 2>&1 || fail "noise run $i failed (see $work/u$i.out)"
    done
    "$compare" "$work/u1.json" "$work/u2.json" --html="$work/ucompare.html" >"$work/ucompare.out" ||
        fail "glint-compare --html of the noise runs failed (see $work/ucompare.out)"
    pages="$pages unstable ucompare"
fi

# The rows one page shows, each's unstable reasons as the page writes them: the tables' codes
# (meta.stability.codes; "cpu,mig"; "" when stable).
reasons_of() {
    grep -o '"unstable": *\[[^]]*\]' "$1" | sed 's/.*\[//; s/\]//; s/"//g; s/, */,/g' |
        sed 's/cpu-time/cpu/g; s/disturbed/dist/g; s/migrated/mig/g; s/preempted/pre/g; s/run-delay/delay/g; s/timer-resolution/timer/g'
}

for page in $pages; do
    case $page in
        run | compare) json="$work/new.json" lanes=2 ;;
        unstable) json="$work/u2.json" lanes=1 ;;
        ucompare) json="$work/u2.json" lanes=2 ;;
    esac
    rows=$(grep -c '"repetitionMediansNs":' "$json")
    [[ $rows -ge 2 ]] || fail "$page: $json holds $rows rows"
    dom="$work/$page.dom.html"
    chrome --dump-dom "file://$work/$page.html#sort=-median" >"$dom" || fail "$page: chromium --dump-dom failed (see $work/chromium.log)"
    shown=$(grep -o '<tr class="row"' "$dom" | wc -l)
    [[ $shown -eq $rows ]] || fail "$page: $shown rows in the DOM, expected $rows"
    # Per row: exactly one plot, with its lanes; axis labels at real samples.
    LC_ALL=C awk -v page="$page" -v lanes="$lanes" -f "$(dirname "$0")/rows.awk" "$dom" || exit 1
    grep -q 'data-sorted="median:desc"' "$dom" || fail "$page: the page's script did not sort by #sort=-median"
    grep -o 'data-col="median" data-sort="[^"]*"' "$dom" | sed 's/.*data-sort="\([^"]*\)"/\1/' >"$work/$page.medians"
    [[ $(wc -l <"$work/$page.medians") -eq $rows ]] || fail "$page: $(wc -l <"$work/$page.medians") median cells, expected $rows"
    sort -g -r -c "$work/$page.medians" 2>/dev/null || fail "$page: rows are not in descending median order: $(tr '\n' ' ' <"$work/$page.medians")"
    # Unstable marks: as many "~ codes" lines as the JSON has unstable rows, with its reasons' codes.
    reasons_of "$json" | grep -v "^$" | sort -u >"$work/$page.reasons.json"
    grep -o '<div class="why">~ [^<]*</div>' "$dom" | sed 's/<div class="why">~ //; s/<\/div>//' | sort -u >"$work/$page.reasons.dom"
    if [[ $page == unstable || $page == ucompare ]]; then
        [[ -s $work/$page.reasons.json ]] || fail "$page: the noise fixture's rows were not marked unstable: $json"
        # ucompare: both sides' cells are marked; every reason list of the new side must show.
        comm -23 <(sort -u "$work/$page.reasons.json") "$work/$page.reasons.dom" | grep -q . &&
            fail "$page: unstable reasons of the JSON missing in the page: $(comm -23 <(sort -u "$work/$page.reasons.json") "$work/$page.reasons.dom" | tr '\n' ';')"
        marks=$(grep -o '<span class="mark">~</span>' "$dom" | wc -l)
        [[ $marks -ge $(wc -l <"$work/$page.reasons.json") ]] || fail "$page: $marks ~ marks for $(wc -l <"$work/$page.reasons.json") unstable rows"
        grep -q 'title="unstable: [a-z =-]* (' "$dom" || fail "$page: no unstable cell says what its reasons mean"
    elif [[ $page == run ]]; then
        diff -q "$work/$page.reasons.json" "$work/$page.reasons.dom" >/dev/null ||
            fail "$page: the page's unstable marks ($(tr '\n' ';' <"$work/$page.reasons.dom")) differ from the JSON's ($(tr '\n' ';' <"$work/$page.reasons.json"))"
    fi
    if [[ $page == compare ]]; then
        h1=$(grep -o '<h1>[^<]*</h1>' "$dom")
        [[ $h1 == *"base (3 runs: a1.json … a3.json)"* ]] || fail "$page: the title does not name the 3-run base once: $h1"
        [[ $h1 != *a2.json* && $(grep -o 'a1\.json' <<<"$h1" | wc -l) -eq 1 ]] || fail "$page: the title repeats file names: $h1"
        grep -q "<p class=\"note\">base: 3 runs: $work/a1.json, $work/a2.json, $work/a3.json</p>" "$dom" ||
            fail "$page: no note lists the base's 3 files"
    fi
    if [[ $page == run ]]; then
        frames=$(grep -c '<svg class="flame"' "$dom")
        if [[ $frames -eq 0 ]]; then
            echo "html: $page: no flame graph (the profile drew no sample on this machine: $(grep -m1 '^profile' "$work/new.out"))"
        else
            LC_ALL=C awk -f "$(dirname "$0")/flames.awk" "$dom" || fail "$page: a flame frame's label is not its full name or a head of it"
        fi
    fi
    if [[ $page == compare || $page == ucompare ]]; then
        # Fits a 1400 px window: laid out at that width, the page scrolls no wider and every
        # cell of the results table, the verdict column included, ends inside the window.
        fit="$work/$page.fit.html"
        { cat "$work/$page.html"; cat <<'JS'
<script>addEventListener("load", () => {
  const w = innerWidth, wide = document.documentElement.scrollWidth;
  const out = [...document.querySelectorAll("#results td, #results th")]
    .filter(c => c.getBoundingClientRect().right > w + 0.5).length;
  document.body.setAttribute("data-fit", `window=${w} scroll=${wide} cells-outside=${out}`);
});</script>
JS
        } >"$fit"
        chrome --window-size=1400,1000 --dump-dom "file://$fit" >"$work/$page.fit.dom" ||
            fail "$page: chromium --dump-dom at 1400 px failed (see $work/chromium.log)"
        measured=$(grep -o 'data-fit="[^"]*"' "$work/$page.fit.dom") || fail "$page: the 1400 px layout was not measured"
        [[ $measured == 'data-fit="window=1400 scroll='* && $measured == *' cells-outside=0"' ]] &&
            (($(sed 's/.*scroll=\([0-9]*\).*/\1/' <<<"$measured") <= 1400)) ||
            fail "$page: does not fit a 1400 px window: $measured"
        echo "html: $page: fits a 1400 px window ($measured)"
    fi
    png="$work/$page.png"
    chrome --screenshot="$png" --window-size=1400,1000 "file://$work/$page.html" >/dev/null ||
        fail "$page: chromium --screenshot failed (see $work/chromium.log)"
    [[ $(head -c 8 "$png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "$page: $png is not a PNG"
    size=$(stat -c %s "$png")
    [[ $size -gt 20000 ]] || fail "$page: the screenshot is $size bytes: an empty page?"
    echo "html: $page: $shown rows, one plot each, axis labels at samples, $(wc -l <"$work/$page.reasons.dom") unstable reason lists, sorted by the page's script; screenshot $size bytes ($png)"
done
echo "html: ok"
