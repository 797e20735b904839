#!/usr/bin/env bash
# filters.sh GLINT_EXE GB_EXE: --benchmark_filter selects the same instances in both.
set -u
dir=$(dirname "$0")
for f in 'BM_sum' 'BM_sum/64$' '-BM_sum' 'threads:2' '^Buffer/' 'BM_pair/(rows|x):' 'all' 'BM_fill<'; do
    bash "$dir/list_equal.sh" "$1" "$2" "--benchmark_filter=$f" >/dev/null || {
        echo "FAIL: --benchmark_filter=$f"
        bash "$dir/list_equal.sh" "$1" "$2" "--benchmark_filter=$f"
        exit 1
    }
    echo "ok: --benchmark_filter=$f"
done
