#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (as root: installs what is missing), configures a Release
# build, builds, and runs every test through ctest, ending with ctest's summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash third_party/setup-debian.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
