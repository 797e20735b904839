# tests/html/rows.awk (check.sh, LC_ALL=C): the rows of one page's DOM. Each <tr class="row">
# holds one <svg class="dist"> with one lane of its own and lanes-1 of the baseline; its axis
# labels name real samples: the lo label's data-ns is the lowest sample of the lanes (data-min)
# and its text reads as that lane's hover text writes its min; when strays lie beyond, their
# extreme (data-stray-ns) is that sample instead and the text says so ("down to"). hi alike.
#   awk -v page=NAME -v lanes=1|2 -f rows.awk DOM
function attr(s, name,    i, rest) {
    i = index(s, " " name "=\"")
    if (!i) return ""
    rest = substr(s, i + length(name) + 3)
    return substr(rest, 1, index(rest, "\"") - 1)
}
function between(s, from, to,    i, rest) {
    i = index(s, from)
    if (!i) return ""
    rest = substr(s, i + length(from))
    return to == "" ? rest : substr(rest, 1, index(rest, to) - 1)
}
function bad(row, what) {
    printf "html: FAIL: %s: row %d: %s\n", page, row, what > "/dev/stderr"
    failed = 1
    exit 1
}
# One label (kind "lo" or "hi") against the lanes' extreme `ns` and its text `text`.
function check_label(row, svg, kind, ns, text, word,    tag, shown, stray) {
    tag = between(svg, "<text class=\"axis " kind "\"", ">")
    if (tag == "") bad(row, "no " kind " axis label")
    shown = between(svg, "<text class=\"axis " kind "\"" tag ">", "</text>")
    stray = attr(tag, "data-stray-ns")
    if (stray == "") {
        if (attr(tag, "data-ns") + 0 != ns) bad(row, kind " label at " attr(tag, "data-ns") " ns, the samples reach " ns " ns")
        if (shown != text) bad(row, kind " label reads '" shown "', the sample it names reads '" text "'")
    } else {
        if (stray + 0 != ns) bad(row, kind " label names strays to " stray " ns, the samples reach " ns " ns")
        if (index(shown, word) == 0) bad(row, kind " label '" shown "' does not say how far the strays reach")
        if ((kind == "lo" && attr(tag, "data-ns") + 0 <= ns) || (kind == "hi" && attr(tag, "data-ns") + 0 >= ns))
            bad(row, kind " label at " attr(tag, "data-ns") " ns is not inside the strays' " ns " ns")
    }
    checked++
}
{ text = text $0 "\n" }
END {
    if (failed) exit 1
    n = split(text, parts, "<tr class=\"row\"")
    for (i = 2; i <= n; i++) {
        row = substr(parts[i], 1, index(parts[i], "</tr>"))
        svgs = gsub(/<svg class="dist"/, "&", row)
        base = gsub(/class="lane-base"/, "&", row)
        mine = gsub(/class="lane-new"/, "&", row)
        if (svgs != 1 || base != lanes - 1 || mine != 1)
            bad(i - 1, svgs " plots, " base " baseline lanes, " mine " lanes of its own")
        svg = between(row, "<svg class=\"dist\"", "</svg>")
        lo = ""; hi = ""
        rest = svg
        while ((p = index(rest, "<g class=\"lane-")) > 0) {
            rest = substr(rest, p)
            tag = substr(rest, 1, index(rest, ">"))
            title = between(rest, "<title>", "</title>")
            mn = attr(tag, "data-min"); mx = attr(tag, "data-max")
            if (mn == "" || mx == "") bad(i - 1, "a lane without data-min/data-max: " tag)
            min_text = between(title, ", min ", ","); max_text = between(title, ", max ", "")
            if (index(max_text, ",")) max_text = substr(max_text, 1, index(max_text, ",") - 1)
            if (lo == "" || mn + 0 < lo) { lo = mn + 0; lo_text = min_text }
            if (hi == "" || mx + 0 > hi) { hi = mx + 0; hi_text = max_text }
            rest = substr(rest, 2)
        }
        check_label(i - 1, svg, "lo", lo, lo_text, "down to")
        check_label(i - 1, svg, "hi", hi, hi_text, "up to")
    }
    if (n < 2) bad(0, "no rows")
}
