#!/usr/bin/env bash
# Configures and builds dlsize into build/ (or $DLSIZE_BUILD_DIR). Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${DLSIZE_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
ninja -C "$build" >/dev/null
echo "build: $build/dlsize"
