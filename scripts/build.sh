#!/usr/bin/env bash
# Configures and builds dlsize into build/ (or $DLSIZE_BUILD_DIR). Extra arguments go to cmake.
# Compiler errors are shown as they come; the progress lines of a good build are kept short.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${DLSIZE_BUILD_DIR:-build}
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
mkdir -p "$build"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" "$@" \
  >"$build/configure.log" 2>&1 || { cat "$build/configure.log" >&2; echo "build: configure failed" >&2; exit 1; }
grep -E '^-- dlsize:' "$build/configure.log" || true
set +e
ninja -C "$build" | grep -vE '^\[[0-9]+/[0-9]+\] (Building|Linking|Generating|Embedding|Re-checking)'
rc=${PIPESTATUS[0]}
set -e
if ((rc != 0)); then
  echo "build: failed (the compiler's messages are above)" >&2
  exit 1
fi
echo "build: $build/dlsize"
