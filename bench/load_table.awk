# bench/load_table.awk: bench/load.sh's table (POSIX awk; mawk is enough). Input: the rows' keys,
# one a line, in glint's order; then tab-separated measurements: tool (glint|gb), phase
# (idle|loaded), round, key, median ns, printed ± ns ("null" where none). Prints the markdown
# table and the summary; exit 0 when both goals are met, 1 when not. -v rounds=N -v tiny=0|1.

function median(list,    n, a, i, j, t) {  # of the space-separated numbers in list
    n = split(list, a, " ")
    if (n == 0) return "null"
    for (i = 2; i <= n; i++) {
        t = a[i] + 0
        for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]
        a[j + 1] = t
    }
    return n % 2 ? a[(n + 1) / 2] + 0 : (a[n / 2] + a[n / 2 + 1]) / 2
}
function fmt(ns) {  # a time with its unit, 4 significant digits; — when not measured
    if (ns == "null") return "—"
    if (ns >= 1e6) return sprintf("%.4g ms", ns / 1e6)
    if (ns >= 1e3) return sprintf("%.4g µs", ns / 1e3)
    return sprintf("%.4g ns", ns)
}
function spread(list,    n, a, i, lo, hi) {  # max/min of the space-separated numbers in list
    n = split(list, a, " ")
    if (n < 2) return "null"
    lo = hi = a[1] + 0
    for (i = 2; i <= n; i++) { if (a[i] + 0 < lo) lo = a[i] + 0; if (a[i] + 0 > hi) hi = a[i] + 0 }
    return lo > 0 ? hi / lo : "null"
}
function extreme(list, want_max,    n, a, i, x) {  # min (max) of the space-separated numbers
    n = split(list, a, " ")
    if (n == 0) return "null"
    x = a[1] + 0
    for (i = 2; i <= n; i++) if (want_max ? a[i] + 0 > x : a[i] + 0 < x) x = a[i] + 0
    return x
}
function ratio(a, b) { return (a == "null" || b == "null" || b <= 0) ? "null" : a / b }
function fmt_ratio(x) { return x == "null" ? "—" : sprintf("%.3f", x) }

FNR == NR { if (!($0 in seen)) { seen[$0] = 1; keys[++nkeys] = $0 }; next }
$5 != "null" {
    values[$1, $2, $4] = values[$1, $2, $4] " " $5
    median_of[$1, $2, $4, $3] = $5
    spread_of[$1, $2, $4, $3] = $6
}

END {
    print "| row | glint idle | idle max/min | glint loaded | loaded/idle | within 3% | ± covers idle | GB idle | GB idle max/min | GB loaded | GB loaded/idle |"
    print "|---|---|---|---|---|---|---|---|---|---|---|"
    rows = within = covered = in_floor = 0
    for (i = 1; i <= nkeys; i++) {
        k = keys[i]
        gi = median(values["glint", "idle", k]); gl = median(values["glint", "loaded", k])
        bi = median(values["gb", "idle", k]); bl = median(values["gb", "loaded", k])
        g = ratio(gl, gi); b = ratio(bl, bi)
        gs = spread(values["glint", "idle", k]); bs = spread(values["gb", "idle", k])
        if (gs != "null") glint_floor = glint_floor " " gs
        if (bs != "null") gb_floor = gb_floor " " bs
        in3 = "—"; cover = "—"
        if (gi != "null") {  # a row counts when its idle median was measured
            rows++
            in3 = (g != "null" && g >= 0.97 && g <= 1.03) ? "yes" : "no"
            within += (in3 == "yes")
            lo = extreme(values["glint", "idle", k], 0); hi = extreme(values["glint", "idle", k], 1)
            in_floor += (gl != "null" && gl >= lo && gl <= hi)
            hits = 0  # loaded rounds whose median ± printed spread held the idle median
            for (r = 1; r <= rounds; r++) {
                m = median_of["glint", "loaded", k, r]; s = spread_of["glint", "loaded", k, r]
                if (m != "" && s != "null" && s != "" && (m - gi <= s + 0) && (gi - m <= s + 0)) hits++
            }
            cover = hits "/" rounds
            covered += (2 * hits > rounds)
        }
        if (g != "null") glint_ratios = glint_ratios " " g
        if (b != "null") gb_ratios = gb_ratios " " b
        printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", k, fmt(gi), fmt_ratio(gs),
               fmt(gl), fmt_ratio(g), in3, cover, fmt(bi), fmt_ratio(bs), fmt(bl), fmt_ratio(b)
    }
    print ""
    printf "glint: %d/%d rows within 3%% of idle (goal: at least 90%%)\n", within, rows
    printf "glint: %d/%d rows whose loaded median lies within the idle rounds' own range (min to max)\n", in_floor, rows
    printf "glint: %d/%d covered: the printed ± held the idle median in most loaded rounds (goal: at least 90%%)\n", covered, rows
    printf "loaded/idle, median over rows: glint %s, Google Benchmark %s\n",
           fmt_ratio(median(glint_ratios)), fmt_ratio(median(gb_ratios))
    # The machine's own floor: how far idle rounds of the same row moved (max/min). A goal of 3%
    # cannot be judged on a machine whose idle rounds move more than that.
    printf "idle rounds max/min, median over rows: glint %s, Google Benchmark %s (the machine's noise floor)\n",
           fmt_ratio(median(glint_floor)), fmt_ratio(median(gb_floor))
    met = rows > 0 && 10 * within >= 9 * rows && 10 * covered >= 9 * rows
    if (!tiny) print met ? "load: goals met" : "load: goals NOT met"
    exit (met ? 0 : 1)
}
