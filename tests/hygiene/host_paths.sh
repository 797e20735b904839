#!/usr/bin/env bash
# tests/hygiene/host_paths.sh ROOT: fails when a test source under ROOT hands a host path under
# /dev, /proc or /sys to something that writes. Tests make the nodes they write in a TempDir
# (tests/support/device_node.hpp); a guest a rig boots is its own machine and is not scanned.
#
# Scanned: ROOT/tests, ROOT/bench and ROOT/examples (what the tests run). A line is a violation when
# it names such a path and
#   - passes it to an output flag (--bench-json=/dev/..., any --flag=<path> but the read flags below),
#   - passes it to a call that can write or replace (open, fopen, ofstream, write_output, ...),
#   - (shell) redirects or tees into it.
# Allowed, explicitly: reads (O_RDONLY opens, fopen "r", --bench-baseline=, --recover-journal=),
# and a shell's own stream thrown away (>/dev/null, >&2 as >/dev/stderr): the shell opens the
# standard sink without creating or replacing anything, and no glint output path is involved.
# One line per violation: "<file>:<line>: <text>", then a summary naming the fix; exit 1.
set -u
root=${1:?usage: host_paths.sh SOURCE_ROOT}
host='/(dev|proc|sys)(/|"|$)'
guest='^tests/(aarch64/guest/|rigs/guest_init\.cpp|numa/numa_guest_test\.cpp|hygiene/)'
writer_call='\b(open|openat|open64|creat|fopen|freopen|ofstream|fstream|write_output|probe_output|resolve_writable_output|JournalFile::create|mknod|mkfifo|truncate|rename|unlink|remove|remove_all|copy_file|BackgroundProcess|run_process)\b'
read_only='O_RDONLY|fopen\([^,]*, *"r"|--bench-baseline=|--recover-journal='
found=0
cd "$root" || exit 2
while IFS= read -r file; do
    [[ $file =~ $guest ]] && continue
    case $file in
        *.sh|*.bash|*.cmake|*CMakeLists.txt) shell=1 ;;
        *) shell=0 ;;
    esac
    lineno=0
    while IFS= read -r line || [[ -n $line ]]; do
        lineno=$((lineno + 1))
        [[ $line =~ $host ]] || continue
        bad=0
        if [[ $line =~ --[A-Za-z0-9-]+=\"?/(dev|proc|sys)/ ]]; then bad=1; fi
        if [[ $line =~ $writer_call.*\"/(dev|proc|sys)[/\"] ]]; then bad=1; fi
        if ((shell)); then
            # Redirections and tee into a host path, but the discarded stream (>/dev/null, /dev/stderr, /dev/stdout).
            stripped=$(sed -E 's#[0-9&]?>>?[[:space:]]*"?/dev/(null|stderr|stdout)"?##g' <<<"$line")
            if [[ $stripped =~ \>[[:space:]]*\"?/(dev|proc|sys)/ || $stripped =~ tee[[:space:]]+(-a[[:space:]]+)?\"?/(dev|proc|sys)/ ]]; then
                bad=1
            fi
        fi
        if ((bad)) && [[ $line =~ $read_only ]] && ! [[ $line =~ O_WRONLY|O_RDWR ]]; then bad=0; fi
        if ((bad)); then
            printf '%s:%d: %s\n' "$file" "$lineno" "$(sed -E 's/^[[:space:]]+//' <<<"$line")"
            found=$((found + 1))
        fi
    done <"$file"
done < <(find tests bench examples -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.sh' \
            -o -name '*.cmake' -o -name 'CMakeLists.txt' \) 2>/dev/null | sed 's#^\./##' | sort)
if ((found)); then
    echo "host_paths: $found line(s) hand a host path under /dev, /proc or /sys to a writer: make the node" \
         "in a TempDir (tests/support/device_node.hpp: make_char_device) or use a file of the test's own"
    exit 1
fi
echo "host_paths: no test writes a host path under /dev, /proc or /sys"
