#!/usr/bin/env bash
# Installs what is missing (the test tools too), builds with warnings as errors (after
# scripts/quickstart.sh only the tests compile: same tree, same flags), and runs every test
# through CTest: the labels unit, integration, faults, lint (the format check and the
# function-size check) and gpu. Arguments go to ctest, e.g. `scripts/test.sh -L unit`.
set -euo pipefail
cd "$(dirname "$0")/.."
phase() { echo "test: $1 ($(($(date +%s) - t0)) s so far)" >&2; }
t0=$(date +%s)
scripts/deps.sh --test
phase "packages ready"
DLSIZE_BUILD_DIR=${DLSIZE_BUILD_DIR:-build} scripts/build.sh -DDLSIZE_WERROR=ON -DDLSIZE_TESTS=ON
phase "built"
cd "${DLSIZE_BUILD_DIR:-build}"
# Most integration tests wait on timers, rate caps and child processes rather than compute, so
# three at once keep 2 cores busy; the few that read whole-device counters run alone (serial).
rc=0
ctest --output-on-failure -j "${DLSIZE_TEST_JOBS:-3}" --timeout 600 "$@" || rc=$?
phase "tests ran"
exit $rc
