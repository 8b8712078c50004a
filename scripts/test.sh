#!/usr/bin/env bash
# Installs what is missing, builds with warnings as errors, and runs every test through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
build=${DLSIZE_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDLSIZE_WERROR=ON >/dev/null
ninja -C "$build"
cd "$build"
ctest --output-on-failure -j 2 --timeout 600
