# tests/html/flames.awk (check.sh, LC_ALL=C): every labelled frame of every flame graph shows its
# <title>'s full name, or where the full name would not fit the frame (6.7 px a character, 3 px
# either side) a shorter form of it with "…" (never ".."): its pieces between the "…" are pieces
# of the name in order (engine/profile/function_name.hpp); at least one frame is labelled.
function chars(s) { gsub(/&[a-z]+;|&#[0-9]+;/, "x", s); gsub(/[\200-\277]/, "", s); return length(s) }
{ text = text $0 "\n" }
END {
    n = split(text, frames, "<g><title>")
    labelled = 0
    for (i = 2; i <= n; i++) {
        f = frames[i]
        title = substr(f, 1, index(f, "</title>") - 1)
        name = title
        sub(/ \([0-9]+ samples, [0-9.]+%\)$/, "", name)
        if (name == title) { print "html: FAIL: a frame's title has no sample count: " title > "/dev/stderr"; exit 1 }
        end = index(f, "</g>")
        t = index(f, "<text")
        if (t == 0 || (end && t > end)) continue
        label = substr(f, t)
        label = substr(label, index(label, ">") + 1)
        label = substr(label, 1, index(label, "</text>") - 1)
        labelled++
        if (label == name) continue
        # Shortened: its pieces between "…" are pieces of the name, in order, and it is shorter.
        ellipsis = "\342\200\246"
        pieces = split(label, piece, ellipsis)
        rest = name
        ok = pieces > 1 && chars(label) < chars(name)
        for (p = 1; ok && p <= pieces; p++) {
            at = index(rest, piece[p])
            if (at == 0) ok = 0
            else rest = substr(rest, at + length(piece[p]))
        }
        if (!ok) {
            print "html: FAIL: a frame labelled '" label "' is titled '" name "'" > "/dev/stderr"
            exit 1
        }
        rect = substr(f, index(f, "<rect"))
        width = rect
        sub(/^[^>]* width="/, "", width)
        sub(/".*/, "", width)
        if (chars(name) * 6.7 + 6 <= width + 0) {
            print "html: FAIL: '" name "' fits its " width " px frame, yet is cut to '" label "'" > "/dev/stderr"
            exit 1
        }
    }
    if (labelled == 0) { print "html: FAIL: no flame frame carries a label" > "/dev/stderr"; exit 1 }
}
