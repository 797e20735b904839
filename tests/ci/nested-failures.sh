#!/usr/bin/env bash
# Usage: nested-failures.sh BUILD_DIR STAMP
# After a red ctest run of BUILD_DIR, names each test that failed inside a nested tree
# (BUILD_DIR/*/, e.g. build/sanitize: its ctest entry's own line says only "Failed") and prints
# the end of that test's output, so the end of a CI log, often all that is kept, says what
# failed and why. Only trees whose ctest record is newer than STAMP (a file made before the
# run) are read: a stale record from an earlier run is never reported.
set -uo pipefail
build=$1 stamp=$2 lines=${GLINT_NESTED_FAILURE_LINES:-40}
for failed in "$build"/*/Testing/Temporary/LastTestsFailed.log; do
    [[ -f $failed && $failed -nt $stamp ]] || continue
    tree=${failed%/Testing/Temporary/LastTestsFailed.log}
    echo "failed inside the nested tree $tree:"
    while IFS= read -r entry; do
        name=${entry#*:}
        echo "  $name"
        # The output of the test's last run in LastTest.log: between "Output:" and "<end of output>".
        awk -v name="$name" '
            /^[0-9]+\/[0-9]+ Test: / { t = $0; sub(/^[0-9]+\/[0-9]+ Test: /, "", t); cur = (t == name); grab = 0; next }
            cur && /^Output:$/ { grab = 1; buf = ""; getline; next }
            cur && grab && /^<end of output>$/ { last = buf; cur = 0; grab = 0; next }
            cur && grab { buf = buf $0 "\n" }
            END { printf "%s", last }' "$tree/Testing/Temporary/LastTest.log" | tail -n "$lines" | sed 's/^/    /'
    done <"$failed"
done
