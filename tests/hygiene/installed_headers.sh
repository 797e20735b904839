#!/usr/bin/env bash
# tests/hygiene/installed_headers.sh DIR...: fails when a header under the DIRs (each an include
# root holding glint/: the same files the package installs) names a repository path — a source
# folder (engine/, os/, arch/, ...) or a .cpp file — that an installed user does not have.
# <glint/...> names are what users have, and pass. Symbolic links are followed.
# One line per violation, "<file>:<line>: <text>", then a summary; exit 1.
set -u
(($#)) || { echo "usage: installed_headers.sh INCLUDE_ROOT..."; exit 2; }
repo='(^|[^A-Za-z0-9_./-])(engine|os|arch|catalog|tools|tests|docs|cmake|bench|examples|third_party)/|[A-Za-z0-9_]\.cpp\b'
found=0
for root in "$@"; do
    while IFS= read -r file; do
        lineno=0
        while IFS= read -r line || [[ -n $line ]]; do
            lineno=$((lineno + 1))
            stripped=$(sed -E 's#glint/[A-Za-z0-9_./-]*##g' <<<"$line")
            if [[ $stripped =~ $repo ]]; then
                printf '%s:%d: %s\n' "${file#"$root"/}" "$lineno" "$line"
                found=$((found + 1))
            fi
        done <"$file"
    done < <(find -L "$root/glint" -type f -name '*.hpp' 2>/dev/null | sort)
done
if ((found)); then
    echo "installed_headers: $found line(s) of installed headers name a repository path: name" \
         "the <glint/...> header, or say it in words"
    exit 1
fi
echo "installed_headers: no installed header names a repository path"
