#!/usr/bin/env bash
# Installs what is missing (the test tools too), builds with warnings as errors (after
# scripts/quickstart.sh only the tests compile: same tree, same flags), and runs every test
# through CTest: the labels unit, integration, faults, lint (the format check and the
# function-size check) and gpu. Arguments go to ctest, e.g. `scripts/test.sh -L unit`.
set -euo pipefail
cd "$(dirname "$0")/.."
phase() { echo "test: $1 ($(($(date +%s) - t0)) s so far)" >&2; }
t0=$(date +%s)
scripts/deps.sh --test-build
phase "build packages ready"
# The tools only the tests' run needs (chromium, radosgw, clang-format/-tidy: most of the
# download) are fetched and unpacked while the tree compiles: apt waits on the network and the
# disk, the compiler on the CPU.
deps_log=$(mktemp)
scripts/deps.sh --test >"$deps_log" 2>&1 &
deps_pid=$!
# On a failed build apt is left to finish (a killed dpkg leaves its database half done).
trap 'wait $deps_pid 2>/dev/null; rm -f "$deps_log"' EXIT
DLSIZE_BUILD_DIR=${DLSIZE_BUILD_DIR:-build} scripts/build.sh -DDLSIZE_WERROR=ON -DDLSIZE_TESTS=ON
phase "built"
if ! wait $deps_pid; then
  cat "$deps_log" >&2
  echo "test: installing the test tools failed (above)" >&2
  exit 2
fi
trap 'rm -f "$deps_log"' EXIT
cat "$deps_log" >&2
phase "test packages ready"
cd "${DLSIZE_BUILD_DIR:-build}"
# Most integration tests wait on timers, rate caps and child processes rather than compute, so
# three at once keep 2 cores busy; the few that read whole-device counters run alone (serial).
rc=0
ctest --output-on-failure -j "${DLSIZE_TEST_JOBS:-3}" --timeout 600 "$@" || rc=$?
phase "tests ran"
exit $rc
