#!/usr/bin/env bash
# Installs what is missing, checks the formatting, builds with warnings as errors, checks function
# sizes in src/pipeline and src/report (clang-tidy, that one check), and runs every test through
# CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/format.sh --check
DLSIZE_BUILD_DIR=${DLSIZE_BUILD_DIR:-build} scripts/build.sh -DDLSIZE_WERROR=ON
scripts/function-size.sh "${DLSIZE_BUILD_DIR:-build}"
cd "${DLSIZE_BUILD_DIR:-build}"
ctest --output-on-failure -j 2 --timeout 600
