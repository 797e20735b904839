#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (as root: installs what is missing), configures a Release
# build, builds, and runs the shipped suite with --bench, printing its table. Extra arguments
# go to the suite (e.g. --perf, --filter=memcpy*, --bench-json=out.json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash third_party/setup-debian.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)" --target glint_bench
./build/bench/glint_bench --bench "$@"
