#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (as root: installs what is missing), configures a Release
# build whose warnings are errors (GLINT_WERROR), builds, and runs every test through ctest,
# ending with ctest's summary; when a test failed inside a nested tree (the sanitizer tree),
# the summary is followed by its name and the end of its output (tests/ci/nested-failures.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash third_party/setup-debian.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGLINT_WERROR=ON
cmake --build build -j"$(nproc)"
stamp=$(mktemp)
status=0
ctest --test-dir build --output-on-failure -j"$(nproc)" || status=$?
if ((status != 0)); then bash tests/ci/nested-failures.sh build "$stamp"; fi
rm -f "$stamp"
exit "$status"
